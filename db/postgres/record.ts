import type { RecordDialect } from "@/db/driver/database";

/**
 * PostgreSQL's side of RecordDialect. incident_search computes its tsvector itself
 * (migrations-postgres 0001); version_search goes with its version by a foreign key.
 */
export const postgresRecord: RecordDialect = {
  // The planner picks its indexes itself.
  indexedBy: () => "",
  least: (left, right) => `least(${left}, ${right})`,
  deleteSearchEntry: "DELETE FROM incident_search WHERE incident_id = ?",
  insertSearchEntry: "INSERT INTO incident_search (incident_id, title, updates, postmortem) VALUES (?, ?, ?, ?)",
  insertRemovedText: "INSERT INTO version_search (version_id, removed) VALUES (?, ?)",
};
