import type { RecordDialect } from "@/db/driver/database";

/**
 * SQLite's side of RecordDialect. incident_search_text's triggers keep the FTS5 index in step
 * (migration 0018); version_search is keyed by rowid and emptied by a trigger (migration 0022).
 */
export const sqliteRecord: RecordDialect = {
  indexedBy: (index) => ` INDEXED BY ${index}`,
  least: (left, right) => `min(${left}, ${right})`,
  deleteSearchEntries: "DELETE FROM incident_search_text WHERE incident_id IN (SELECT value FROM json_each(@ids))",
  searchEntries: { into: "INSERT INTO incident_search_text (incident_id, body)", row: "(?, redline_search_pack(?, ?, ?))" },
  removedTexts: { into: "INSERT INTO version_search (rowid, removed)", row: "(?, ?)" },
};
