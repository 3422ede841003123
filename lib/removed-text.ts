/**
 * What a version took away from the text of the one before it: the passages (title, each update,
 * each paragraph of the postmortem) no longer there, word for word. Indexed for search, so words
 * a vendor edited away are still found (decision 0028).
 */

type IncidentText = { title: string; updates: ReadonlyArray<{ body: string }>; postmortem?: { body: string } | null };

/** Bound on the text kept per version: a rewritten postmortem is the largest, far below this. */
export const MAX_REMOVED_CHARS = 200_000;

/** An incident's text cut where an edit usually starts and ends. */
export function passagesOf(incident: IncidentText): string[] {
  const paragraphs = (text: string) => text.split(/\n\s*\n/).map((p) => p.trim()).filter((p) => p !== "");
  return [incident.title.trim(), ...incident.updates.map((u) => u.body.trim()), ...paragraphs(incident.postmortem?.body ?? "")].filter((p) => p !== "");
}

/** The passages of `before` that `after` no longer has, in their order, each once; "" when none went. */
export function removedText(before: IncidentText, after: IncidentText): string {
  const kept = new Set(passagesOf(after));
  const removed = [...new Set(passagesOf(before).filter((p) => !kept.has(p)))];
  return removed.join("\n\n").slice(0, MAX_REMOVED_CHARS);
}
