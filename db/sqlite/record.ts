import type { RecordDialect } from "@/db/driver/database";

/**
 * SQLite's side of RecordDialect. incident_search_text's triggers keep the FTS5 index in step
 * (migration 0018); version_search is keyed by rowid and emptied by a trigger (migration 0022).
 */
export const sqliteRecord: RecordDialect = {
  indexedBy: (index) => ` INDEXED BY ${index}`,
  least: (left, right) => `min(${left}, ${right})`,
  // An entry replaced is updated in place: its trigger takes the old text out of the index and puts the new in.
  searchEntries: {
    into: "INSERT INTO incident_search_text (incident_id, body)",
    row: "(?, redline_search_pack(?, ?, ?))",
    tail: "ON CONFLICT (incident_id) DO UPDATE SET body = excluded.body",
  },
  removedTexts: { into: "INSERT INTO version_search (rowid, removed)", row: "(?, ?)" },
};
