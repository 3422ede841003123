import type { Connection, RedlineDb } from "@/db/driver/database";
import { rewindComponents } from "@/db/record/component-states";
import { statementsFor } from "@/db/driver/prepared";
import type { CaptureKey } from "@/db/record/prior-state";
import { setAppliedThrough } from "@/db/record/record-capture";
import { keepLatestState, keepStateBeforeDeleting } from "@/db/history/state-log";
import { keepLatestSnapshot, keepSnapshotBeforeDeleting } from "@/db/history/version-states";
import { reindexIncidents } from "@/db/record/incident-index";
import { writeStatements } from "@/db/record/write-statements";
import type { IncidentRecord } from "@/lib/derive/incident-record";

const statements = statementsFor((c: Connection) => {
  const listed = c.dialect.operations.listedIds("ids");
  return {
    from: c.prepare<[number, string, string, string], { id: number }>(
      "SELECT id FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) >= (?, ?, ?) ORDER BY observed_at, source, hash",
    ),
    touched: c.prepare<{ ids: string }, { incidentId: number }>(`SELECT DISTINCT incident_id AS incidentId FROM incident_states WHERE capture_id IN (${listed})`),
    deleteVersions: c.prepare<{ ids: string }>(`DELETE FROM incident_versions WHERE capture_id IN (${listed})`),
    deleteStates: c.prepare<{ ids: string }>(`DELETE FROM incident_states WHERE capture_id IN (${listed})`),
    clearCounts: c.prepare<{ ids: string }>(`UPDATE captures SET version_count = 0 WHERE id IN (${listed})`),
    before: c.prepare<[number, string, string, string], { observedAt: string; source: string; hash: string }>(
      `SELECT observed_at AS observedAt, source, hash FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) < (?, ?, ?)
       ORDER BY observed_at DESC, source DESC, hash DESC LIMIT 1`,
    ),
  };
});

/**
 * Undo everything derived from the vendor's captures at or after `from` (in capture order): their
 * versions and record states go, and each incident they touched returns to its record just
 * before (or goes, if it appeared after). The captures stay, to be applied again. Runs inside
 * the caller's transaction. Returns the captures to apply again, in order.
 */
export async function rewindHistory(db: RedlineDb, vendorId: number, from: CaptureKey): Promise<number[]> {
  const st = statements(db);
  const captureIds = (await st.from.all(vendorId, from.observedAt, from.source, from.hash)).map((r) => r.id);
  if (captureIds.length === 0) return [];
  const ids = JSON.stringify(captureIds);
  const touched = (await st.touched.all({ ids })).map((r) => r.incidentId);
  for (const incidentId of touched) {
    await keepStateBeforeDeleting(db, incidentId, ids);
    await keepSnapshotBeforeDeleting(db, incidentId, ids);
  }
  await st.deleteVersions.run({ ids });
  await st.deleteStates.run({ ids });
  await st.clearCounts.run({ ids });
  for (const incidentId of touched) {
    const state = await keepLatestState(db, incidentId);
    if (state === undefined) {
      await writeStatements(db).deleteIncident.run(incidentId);
      continue;
    }
    await keepLatestSnapshot(db, incidentId);
    await restoreIncident(db, vendorId, incidentId, JSON.parse(state) as IncidentRecord);
  }
  await rewindComponents(db, vendorId, from);
  const before = await st.before.get(vendorId, from.observedAt, from.source, from.hash);
  await setAppliedThrough(db, vendorId, before ?? null);
  return captureIds;
}

/** Put an incident's row, listings, search entry and components back as its record says. */
async function restoreIncident(db: RedlineDb, vendorId: number, incidentId: number, record: IncidentRecord): Promise<void> {
  const st = writeStatements(db);
  const { incident } = record;
  const listed = Object.entries(record.sources).filter(([, v]) => v.listed).map(([s]) => s);
  await st.updateIncident.run({
    id: incidentId,
    kind: incident.kind, title: incident.title, status: incident.status, impact: incident.impact,
    startedAt: incident.startedAt, resolvedAt: incident.resolvedAt, presence: record.presence,
    source: listed[0] ?? Object.keys(record.sources)[0] ?? "",
    observedHash: "", firstSeenAt: record.firstSeenAt, seenAt: record.firstSeenAt, versionCount: record.versionCount,
    lastChangedAt: record.lastChangedAt, postmortemAt: record.postmortemAt, editsAfterResolution: record.editsAfterResolution,
  });
  await st.deleteListings.run(incidentId);
  for (const [source, view] of Object.entries(record.sources)) await st.upsertIncidentSource.run(incidentId, vendorId, source, view.listed ? 1 : 0, view.hash);
  await reindexIncidents(db, vendorId, [{ id: incidentId, incident, search: true, components: true }]);
}
