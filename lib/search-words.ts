/** One word of a search box: its text, and whether it ended with * (match words that begin with it). */
export interface SearchWord {
  text: string;
  prefix: boolean;
}

/**
 * What one search may ask for. Each word is another index lookup, and a prefix word reads every
 * indexed word it begins: `c*` most of the vocabulary. A dozen of those cost the archive's web
 * server most of a second on SQLite (issue 34), so a query past these is refused, never cut short.
 */
export const SEARCH_LIMITS = { words: 8, prefixWords: 2, prefixLetters: 3 } as const;

/**
 * The words of a search box as both databases read them: split on spaces, quotes and control
 * characters dropped, words without a letter or digit ignored, a trailing * a prefix.
 */
export function searchWordsOf(input: string): SearchWord[] {
  return input
    .normalize("NFKC")
    .split(/\s+/)
    .map((t) => [...t].filter((c) => c !== '"' && c.charCodeAt(0) >= 32).join(""))
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .map((t) => (t.endsWith("*") && t.length > 1 ? { text: t.replace(/\*+$/, ""), prefix: true } : { text: t.replace(/\*/g, ""), prefix: false }));
}

/**
 * Letters and digits of the word a prefix expands: the tokenizers split a word at punctuation and
 * the * applies to its last part, so `status-c*` expands `c`.
 */
function prefixLetters(text: string): number {
  const last = [...text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)].at(-1)?.[0] ?? "";
  return [...last].filter((c) => /[\p{L}\p{N}]/u.test(c)).length;
}

/** Why a search box's words ask for more than one search may, and what to do instead; null when within the limits. */
export function searchWordsProblem(input: string): string | null {
  const words = searchWordsOf(input);
  const { words: maxWords, prefixWords: maxPrefixes, prefixLetters: minLetters } = SEARCH_LIMITS;
  if (words.length > maxWords) return `at most ${maxWords} words (this has ${words.length}): leave out the least telling`;
  const short = words.find((w) => w.prefix && prefixLetters(w.text) < minLetters);
  if (short) return `a word ending in * needs at least ${minLetters} letters before the * (${JSON.stringify(`${short.text.slice(0, 40)}*`)} matches too many words): type more of it`;
  const prefixes = words.filter((w) => w.prefix).length;
  if (prefixes > maxPrefixes) return `at most ${maxPrefixes} words ending in * (this has ${prefixes}): write the others out in full`;
  return null;
}
