import type { RecordDialect } from "@/db/driver/database";

/**
 * PostgreSQL's side of RecordDialect. incident_search computes its tsvector itself
 * (migrations-postgres 0001); version_search goes with its version by a foreign key.
 */
export const postgresRecord: RecordDialect = {
  // The planner picks its indexes itself.
  indexedBy: () => "",
  least: (left, right) => `least(${left}, ${right})`,
  searchEntries: {
    into: "INSERT INTO incident_search (incident_id, title, updates, postmortem)",
    row: "(?, ?, ?, ?)",
    tail: "ON CONFLICT (incident_id) DO UPDATE SET title = excluded.title, updates = excluded.updates, postmortem = excluded.postmortem",
  },
  removedTexts: { into: "INSERT INTO version_search (version_id, removed)", row: "(?, ?)" },
};
