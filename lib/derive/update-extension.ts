/**
 * An update whose text grew without losing a word: the old text kept whole, a sentence or a
 * paragraph added after it or before it. Feeds that keep an incident's story in one entry grow this
 * way (AWS appending a post-event summary to its last update days later), and so does a vendor that
 * adds "We'd like to share more information" under what it had said. It takes nothing back, so it
 * is no quiet edit (decision 0055).
 *
 * Words inserted inside the old text are not an extension, and neither is text added in the middle
 * of a sentence or a list: "Affected: S3" becoming "Affected: S3, EC2" widens what was said, which is
 * an edit. The joint must fall where a sentence ends (or a paragraph does, for text put before).
 */
export interface UpdateExtension {
  /** Where the new text went: after the old text or before it. */
  where: "end" | "start";
  /** The added text, trimmed. */
  added: string;
  /** Whether it is set apart by a line break (a paragraph) or runs on in the same one. */
  paragraph: boolean;
}

/** A sentence's end: . ! ? or … , then any closing quotes or brackets. */
const SENTENCE_END = /[.!?\u2026]["'\u2019\u201d)\]]*$/;

/** How `after` extends `before`; null when it is no pure extension (or no change at all). */
export function extensionOf(before: string, after: string): UpdateExtension | null {
  const old = before.trim();
  const now = after.trim();
  if (old === now) return null;
  if (old === "") return { where: "end", added: now, paragraph: true };
  if (now.startsWith(old)) {
    const rest = now.slice(old.length);
    if (!/^\s/.test(rest) || !SENTENCE_END.test(old)) return null;
    return { where: "end", added: rest.trim(), paragraph: /^[^\S\n]*\n/.test(rest) };
  }
  if (now.endsWith(old)) {
    const head = now.slice(0, now.length - old.length);
    if (!/\s$/.test(head)) return null;
    const paragraph = /\n[^\S\n]*$/.test(head);
    if (!paragraph && !SENTENCE_END.test(head.trimEnd())) return null;
    return { where: "start", added: head.trim(), paragraph };
  }
  return null;
}

/** An update's change as two texts of one update: the extension, when that is all it is (the status kept too). */
export function extensionOfUpdate(before: { body: string; status: string | null }, after: { body: string; status: string | null }): UpdateExtension | null {
  return before.status === after.status ? extensionOf(before.body, after.body) : null;
}

/** "Update posted", "Update removed", "Update extended" or "Update edited": what a diff heads an update's change with. */
export function updateChangeLabel(before: { body: string; status: string | null } | null, after: { body: string; status: string | null } | null): string {
  if (before === null) return "Update posted";
  if (after === null) return "Update removed";
  return extensionOfUpdate(before, after) ? "Update extended" : "Update edited";
}

/** "A paragraph was added at the end; the text posted before is kept whole." */
export function describeExtensionInDiff(extension: UpdateExtension): string {
  const what = extension.paragraph ? "A paragraph was" : "Text was";
  return `${what} added at the ${extension.where}; the text posted before is kept whole.`;
}
