import type Database from "better-sqlite3";
import { preparedOnConnection } from "@/db/queries/prepared";

/**
 * The search index (FTS5) writes a new segment for every transaction that changes it and merges
 * segments only level by level, so a polled archive's index drifts between a few and a few dozen
 * segments; each hit's snippet probes every one (docs/decisions/0026). Merging them is FTS5's own
 * 'merge' command: a negative page count merges across levels, so repeating it ends in one segment.
 */
export const SEARCH_SEGMENT_LIMIT = 8;

/** Pages one merge step writes: a short hold of the write lock, as every maintenance batch. */
const STEP_PAGES = 200;

const st = preparedOnConnection((sqlite) => ({
  segments: sqlite.prepare<[], { n: number }>("SELECT count(DISTINCT segid) AS n FROM incident_search_idx"),
  changes: sqlite.prepare<[], { n: number }>("SELECT total_changes() AS n"),
  merge: sqlite.prepare<[number]>("INSERT INTO incident_search (incident_search, rank) VALUES ('merge', ?)"),
}));

export function searchSegmentCount(sqlite: Database.Database): number {
  return st(sqlite).segments.get()?.n ?? 0;
}

/**
 * One bounded step of merging the index toward one segment; false when there was nothing to merge.
 * FTS5 says whether a merge did work only through the change count: two or more changes is work.
 */
export function mergeSearchStep(sqlite: Database.Database, pages = STEP_PAGES): boolean {
  const s = st(sqlite);
  const before = s.changes.get()?.n ?? 0;
  s.merge.run(-pages);
  return (s.changes.get()?.n ?? 0) - before >= 2;
}
