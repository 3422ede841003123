import type { RedlineDb } from "@/db/driver/database";
import { writeRows } from "@/db/driver/batch";
import { writeStatements } from "@/db/record/write-statements";
import { searchFieldsOf } from "@/db/search/search-text";
import type { Incident } from "@/lib/incident";

/** An incident whose full-text entry or component filter rows are written again, as it now reads. */
export interface IndexedIncident {
  id: number;
  incident: Pick<Incident, "title" | "updates" | "postmortem" | "components">;
  search: boolean;
  components: boolean;
}

const COMPONENT_ROWS = {
  into: "INSERT INTO incident_components (incident_id, vendor_id, component_id, name)",
  row: "(?, ?, ?, ?)",
  tail: "ON CONFLICT DO NOTHING",
};

/**
 * Keep the search index and the component filter in step with incidents: their search entries
 * replaced, their component rows deleted and written again, a statement each for all of them.
 * Runs in the writer's transaction.
 */
export async function reindexIncidents(db: RedlineDb, vendorId: number, entries: readonly IndexedIncident[]): Promise<void> {
  const st = writeStatements(db);
  const searched = entries.filter((e) => e.search);
  await writeRows(db.connection, db.connection.dialect.record.searchEntries, searched.map((e) => [e.id, ...searchFieldsOf(e.incident)]));
  const filtered = entries.filter((e) => e.components);
  if (filtered.length > 0) {
    await st.deleteComponentsOf.run({ ids: JSON.stringify(filtered.map((e) => e.id)) });
    await writeRows(db.connection, COMPONENT_ROWS, filtered.flatMap((e) => e.incident.components.map((c) => [e.id, vendorId, c.id, c.name])));
  }
}
