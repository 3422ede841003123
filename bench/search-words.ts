/**
 * The costliest search a client may ask of an archive within the search caps (lib/search-words.ts):
 * two prefix words of three letters and six whole words. A prefix word reads every indexed term it
 * begins, a whole word its incidents: candidates are built from the 3-letter beginnings whose terms
 * the most incidents hold and the words the most incidents say, and each is timed with
 * searchIncidents in process (the search page's first page), the costliest kept.
 */
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { searchIncidents, toFtsQuery } from "@/db/queries/search";
import { SEARCH_LIMITS, searchWordsProblem } from "@/lib/search-words";

/** The search page's page size. */
const PAGE = 25;
const PREFIXES = 4;
/** Incidents whose words are counted to find the common ones. */
const WORD_SAMPLE = 2_000;
const TIMINGS = 2;

export interface SearchCandidate {
  words: string[];
  /** The fastest of its timings in process, ms. */
  ms: number;
  hits: number;
}

/** 3-letter beginnings of indexed terms, those whose terms the most incidents hold first. */
function commonPrefixes(db: RedlineDb): string[] {
  db.$client.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.bench_search_vocab USING fts5vocab(main, incident_search, row)");
  return db.$client
    .prepare<[number], { prefix: string }>(
      "SELECT substr(term, 1, 3) AS prefix FROM temp.bench_search_vocab WHERE term GLOB '[a-z][a-z][a-z]*' GROUP BY prefix ORDER BY sum(doc) DESC LIMIT ?",
    )
    .all(PREFIXES)
    .map((r) => r.prefix);
}

/** Whole words of the incidents' text (as a reader would type them), those the most incidents say first, one per stem. */
function commonWords(db: RedlineDb): string[] {
  const rows = db.$client
    .prepare<[number], { text: string }>(
      "SELECT coalesce(title, '') || ' ' || coalesce(updates, '') || ' ' || coalesce(postmortem, '') AS text FROM incident_search_source ORDER BY incident_id DESC LIMIT ?",
    )
    .all(WORD_SAMPLE);
  const incidents = new Map<string, number>();
  for (const { text } of rows) {
    for (const word of new Set(text.toLowerCase().match(/\p{L}{3,}/gu) ?? [])) incidents.set(word, (incidents.get(word) ?? 0) + 1);
  }
  const stems = new Set<string>();
  return [...incidents.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([word]) => word)
    .filter((word) => {
      // "resolve" and "resolved" are one indexed term; five letters tell most of this prose's stems apart.
      const stem = word.slice(0, 5);
      if (stems.has(stem)) return false;
      stems.add(stem);
      return true;
    });
}

async function timeSearch(db: RedlineDb, words: string[]): Promise<SearchCandidate> {
  const input = words.join(" ");
  const problem = searchWordsProblem(input);
  if (problem) throw new Error(`bench: ${JSON.stringify(input)} is past the search caps: ${problem}`);
  const query = toFtsQuery(input);
  if (!query) throw new Error(`bench: ${JSON.stringify(input)} is no search`);
  let ms = Number.POSITIVE_INFINITY;
  let hits = 0;
  for (let i = 0; i < TIMINGS; i += 1) {
    const started = performance.now();
    const result = await searchIncidents(db, query, {}, { limit: PAGE, offset: 0 });
    ms = Math.min(ms, performance.now() - started);
    hits = result.hits.length;
  }
  return { words, ms, hits };
}

/** Candidates timed on the archive at `file` (each line printed), the costliest returned. */
export async function findCostlySearch(file: string): Promise<SearchCandidate> {
  const db = openDatabase(file, { readonly: true });
  try {
    const prefixes = commonPrefixes(db);
    const wholeWords = SEARCH_LIMITS.words - SEARCH_LIMITS.prefixWords;
    const words = commonWords(db).filter((w) => !prefixes.some((p) => w.startsWith(p)));
    const top = words.slice(0, wholeWords);
    const pairs = prefixes.flatMap((a, i) => prefixes.slice(i + 1).map((b) => [`${a}*`, `${b}*`]));
    const timed: SearchCandidate[] = [];
    for (const pair of pairs) timed.push(await timeSearch(db, [...pair, ...top]));
    const costliestPair = [...timed].sort((a, b) => b.ms - a.ms)[0]?.words.slice(0, SEARCH_LIMITS.prefixWords) ?? [];
    // The same prefixes with less common words, which match fewer incidents and so may read the edited-away text too.
    for (let from = wholeWords; from + wholeWords <= Math.min(words.length, 3 * wholeWords); from += wholeWords) {
      timed.push(await timeSearch(db, [...costliestPair, ...words.slice(from, from + wholeWords)]));
    }
    for (const c of timed) console.log(`  candidate ${JSON.stringify(c.words.join(" "))}: ${c.ms.toFixed(0)} ms, ${c.hits} hits`);
    const costliest = [...timed].sort((a, b) => b.ms - a.ms)[0];
    if (!costliest) throw new Error("bench: no search candidates");
    return costliest;
  } finally {
    closeDatabase(db);
  }
}

const FACTORIALS = [1, 1, 2, 6, 24, 120, 720, 5040, 40320];

/**
 * The `k`-th spelling of the same words: the k-th of their orders, words capitalised after the
 * orders run out. Every k below 8! × 2^8 gives another address, so the page cache never has it.
 */
export function searchVariant(words: readonly string[], k: number): string {
  const orders = FACTORIALS[words.length] ?? 1;
  const left = [...words];
  let rest = k % orders;
  const ordered: string[] = [];
  for (let n = words.length - 1; n >= 0; n -= 1) {
    const f = FACTORIALS[n] ?? 1;
    ordered.push(...left.splice(Math.floor(rest / f), 1));
    rest %= f;
  }
  const capitals = Math.floor(k / orders);
  return ordered.map((w, i) => ((capitals >> i) & 1 ? `${w.charAt(0).toUpperCase()}${w.slice(1)}` : w)).join(" ");
}
