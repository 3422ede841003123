import type Database from "better-sqlite3";

/**
 * The search indexes (FTS5) write a new segment for every transaction that changes them and merge
 * segments only level by level, so a polled archive's index drifts between a few and a few dozen
 * segments; each hit's snippet probes every one (docs/decisions/0026). Merging them is FTS5's own
 * 'merge' command: a negative page count merges across levels, so repeating it ends in one segment.
 */
export const SEARCH_SEGMENT_LIMIT = 8;

/** The incidents' current text, and the text each version took away (decision 0028). */
export const SEARCH_INDEXES = ["incident_search", "version_search"] as const;
export type SearchIndex = (typeof SEARCH_INDEXES)[number];

/** Pages one merge step writes: a short hold of the write lock, as every maintenance batch. */
const STEP_PAGES = 200;

const statementsOf = (sqlite: Database.Database, index: SearchIndex) => ({
  segments: sqlite.prepare<[], { n: number }>(`SELECT count(DISTINCT segid) AS n FROM ${index}_idx`),
  merge: sqlite.prepare<[number]>(`INSERT INTO ${index} (${index}, rank) VALUES ('merge', ?)`),
});

const prepare = (sqlite: Database.Database) => ({
  changes: sqlite.prepare<[], { n: number }>("SELECT total_changes() AS n"),
  incident_search: statementsOf(sqlite, "incident_search"),
  version_search: statementsOf(sqlite, "version_search"),
});

/** Prepared once per connection. */
const prepared = new WeakMap<Database.Database, ReturnType<typeof prepare>>();

function st(sqlite: Database.Database): ReturnType<typeof prepare> {
  let statements = prepared.get(sqlite);
  if (!statements) prepared.set(sqlite, (statements = prepare(sqlite)));
  return statements;
}

export function searchSegmentCount(sqlite: Database.Database, index: SearchIndex = "incident_search"): number {
  return st(sqlite)[index].segments.get()?.n ?? 0;
}

/**
 * One bounded step of merging an index toward one segment; false when there was nothing to merge.
 * FTS5 says whether a merge did work only through the change count: two or more changes is work.
 */
export function mergeSearchStep(sqlite: Database.Database, index: SearchIndex = "incident_search", pages = STEP_PAGES): boolean {
  const s = st(sqlite);
  const before = s.changes.get()?.n ?? 0;
  s[index].merge.run(-pages);
  return (s.changes.get()?.n ?? 0) - before >= 2;
}
