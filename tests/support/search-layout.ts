/** The search index as it was before its text was compressed, and the checks and queries its tests share. */
import type { RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { listIncidents } from "@/db/queries/incident-list";
import { searchCurrentText, searchIncidents, toFtsQuery } from "@/db/queries/search";
import { copyArchiveInto, fileBeforeMigration } from "@/tests/support/previous-layout";

/** The migration that moved the index's text into incident_search_text. */
const SEARCH_TEXT_MIGRATION = "search_text";

/**
 * A copy of `source` in the layout before the search text migration: every table's rows, and a
 * plain FTS5 incident_search holding its own copy of the text.
 */
export function writeLayoutBeforeSearchText(source: RedlineDb, dir: string): string {
  const file = fileBeforeMigration(dir, SEARCH_TEXT_MIGRATION);
  copyArchiveInto(file, source);
  return file;
}

/** FTS5's own check that the index holds exactly the tokens of its content; throws when it does not. */
export function checkSearchIndex(db: RedlineDb): void {
  db.$client.prepare("INSERT INTO incident_search (incident_search, rank) VALUES ('integrity-check', 1)").run();
}

export const matchCount = (db: RedlineDb, query: string): number =>
  db.$client.prepare<[string], { n: number }>("SELECT count(*) AS n FROM incident_search WHERE incident_search MATCH ?").get(query)?.n ?? 0;

/** Search words drawn from the archive's own titles and texts: single words, pairs and prefixes. */
export function queriesFrom(db: RedlineDb, count: number): string[] {
  const titles = db.$client.prepare<[], { title: string }>("SELECT title FROM incidents ORDER BY id").all().map((r) => r.title);
  const words = [...new Set(titles.flatMap((t) => t.toLowerCase().match(/\p{L}{4,}/gu) ?? []))].sort();
  const step = Math.max(1, Math.floor(words.length / count));
  const picked = words.filter((_, i) => i % step === 0).slice(0, count);
  return [...picked, ...picked.slice(0, 10).map((w, i) => `${w} ${picked[(i + 3) % picked.length] ?? ""}`), ...picked.slice(0, 10).map((w) => `${w.slice(0, 3)}*`)];
}

/** Words only passages a version took away still hold (version_search): queries that only an earlier version can answer. */
export function editedAwayQueries(db: RedlineDb, count: number): string[] {
  const removed = db.$client.prepare<[], { removed: string }>("SELECT removed FROM version_search ORDER BY rowid").all().map((r) => r.removed);
  const current = new Set(
    db.$client.prepare<[], { text: string }>("SELECT title || ' ' || updates || ' ' || postmortem AS text FROM incident_search").all().flatMap((r) => r.text.toLowerCase().match(/\p{L}+/gu) ?? []),
  );
  const words = [...new Set(removed.flatMap((t) => t.toLowerCase().match(/\p{L}{5,}/gu) ?? []))].filter((w) => !current.has(w)).sort();
  return words.slice(0, count);
}

/**
 * Everything search answers for the queries: ranked hits with snippets, a page further, filters, the
 * lists that filter by words. `changes: false` leaves out the list of changes, for a file of a layout
 * whose versions today's reader cannot read (before the version-content migration); `earlier: false`
 * searches the current text only, for a file from before versions kept what they took away.
 */
export async function searchAnswers(db: RedlineDb, queries: readonly string[], vendor: string, options: { changes?: boolean; earlier?: boolean } = {}): Promise<string> {
  const search = options.earlier === false ? searchCurrentText : searchIncidents;
  const answers = [];
  for (const input of queries) {
    const query = toFtsQuery(input) ?? "";
    answers.push({
      input,
      hits: await search(db, query, {}, { limit: 20, offset: 0 }),
      second: await search(db, query, {}, { limit: 5, offset: 5 }),
      filtered: await search(db, query, { vendor, from: "2021-01-01T00:00:00.000Z", to: "2026-01-01T00:00:00.000Z" }, { limit: 20, offset: 0 }),
      listed: (await listIncidents(db, { query }, 20)).rows.map((r) => r.id),
      changes: options.changes === false ? undefined : (await listChanges(db, { query }, 20)).rows.map((r) => r.versionId),
    });
  }
  return JSON.stringify(answers);
}
