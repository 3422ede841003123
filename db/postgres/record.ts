import type { RecordDialect } from "@/db/driver/database";

/**
 * PostgreSQL's side of RecordDialect. incident_search computes its tsvector itself
 * (migrations-postgres 0001); version_search goes with its version by a foreign key.
 */
export const postgresRecord: RecordDialect = {
  // The planner picks its indexes itself.
  indexedBy: () => "",
  least: (left, right) => `least(${left}, ${right})`,
  deleteSearchEntries: "DELETE FROM incident_search WHERE incident_id IN (SELECT value::bigint FROM jsonb_array_elements_text(@ids::jsonb))",
  searchEntries: { into: "INSERT INTO incident_search (incident_id, title, updates, postmortem)", row: "(?, ?, ?, ?)" },
  removedTexts: { into: "INSERT INTO version_search (version_id, removed)", row: "(?, ?)" },
};
