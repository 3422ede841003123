import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { StoredPatch } from "@/db/history/json-deltas";
import { type PackedJson, unpackJson } from "@/db/history/packed-json";
import { setAppliedThrough } from "@/db/record/record-capture";
import { transact } from "@/db/driver/transaction";
import { writeRows } from "@/db/driver/batch";
import { reindexIncidents } from "@/db/record/incident-index";
import { type IncidentValues, versionKindRows, type VersionValues, writeStatements } from "@/db/record/write-statements";
import type { IncidentRecord } from "@/lib/derive/incident-record";

/**
 * A rebuild derives a vendor's history in a scratch database of the same schema, then swaps it in
 * here incident by incident. The scratch holds copies of the vendor's row and capture rows (same
 * ids, no bodies: those are read from the main database); foreign keys are off there. The scratch
 * is always a SQLite file, whichever database holds the archive: it is this process's workspace,
 * read and written by it alone, and gone when the swap is done.
 */

const CAPTURE_COPY = `id, vendor_id, source, platform, observed_at, last_observed_at, observations, outcome, error, size, hash, body_id, incident_count,
  version_count, recorded_at, warnings, warning_count, window_start`;

/** What the swap reads from and writes to the main database. */
const statements = statementsFor((c: Connection) => ({
  vendor: c.prepare<[number], Record<string, unknown>>("SELECT id, slug, name, platform, created_at FROM vendors WHERE id = ?"),
  captures: c.prepare<[number, number, number], Record<string, string | number | null>>(`SELECT ${CAPTURE_COPY} FROM captures WHERE vendor_id = ? AND id > ? ORDER BY id LIMIT ?`),
  maxCaptureId: c.prepare<[number], { id: number | null }>("SELECT max(id) AS id FROM captures WHERE vendor_id = ?"),
  providerIds: c.prepare<[number], { providerId: string }>("SELECT provider_id AS providerId FROM incidents WHERE vendor_id = ?"),
  incident: c.prepare<[number, string], { id: number; lastSeenAt: string }>("SELECT id, last_seen_at AS lastSeenAt FROM incidents WHERE vendor_id = ? AND provider_id = ?"),
  copyState: c.prepare<[number, number, PackedJson | Buffer | null, StoredPatch | null, number]>(
    "INSERT INTO incident_states (incident_id, capture_id, state, patch, depth) VALUES (?, ?, ?, ?, ?)",
  ),
  clearVersions: c.prepare<[number]>("DELETE FROM incident_versions WHERE incident_id = ?"),
  clearStates: c.prepare<[number]>("DELETE FROM incident_states WHERE incident_id = ?"),
  clearComponentStates: c.prepare<[number]>("DELETE FROM component_states WHERE vendor_id = ?"),
  clearQuiet: c.prepare<[number]>("DELETE FROM quiet_degradations WHERE vendor_id = ?"),
  component: c.prepare<[number, string], { id: number }>(
    `INSERT INTO components (vendor_id, component_key) VALUES (?, ?)
     ON CONFLICT (vendor_id, component_key) DO UPDATE SET component_key = excluded.component_key RETURNING id`,
  ),
  copyComponentState: c.prepare<Record<string, string | number | null>>(
    `INSERT INTO component_states (component_id, vendor_id, name, group_key, is_group, status, vendor_status, inferred, source, state_since, vendor_changed_at, from_at, from_capture_id, until_at, until_capture_id)
     VALUES (@componentId, @vendorId, @name, @groupKey, @isGroup, @status, @vendorStatus, @inferred, @source, @since, @vendorChangedAt, @fromAt, @fromCaptureId, @untilAt, @untilCaptureId)`,
  ),
  copyQuiet: c.prepare<Record<string, string | number | null>>(
    `INSERT INTO quiet_degradations (vendor_id, from_at, from_capture_id, until_at, until_capture_id, components)
     VALUES (@vendorId, @fromAt, @fromCaptureId, @untilAt, @untilCaptureId, @components)`,
  ),
  captureReading: c.prepare<Record<string, string | number | null>>(
    `UPDATE captures SET outcome = @outcome, error = @error, incident_count = @incident_count, version_count = @version_count,
       warnings = @warnings, warning_count = @warning_count, window_start = @window_start WHERE id = @id`,
  ),
}));

/** Make the scratch database hold the vendor (same id), ready to derive into. */
export async function seedScratch(main: RedlineDb, scratch: RedlineDb, vendorId: number): Promise<void> {
  scratch.$client.pragma("foreign_keys = OFF");
  const vendor = await statements(main).vendor.get(vendorId);
  if (!vendor) throw new Error(`store: vendor ${vendorId} is gone`);
  scratch.$client
    .prepare("INSERT INTO vendors (id, slug, name, platform, created_at) VALUES (@id, @slug, @name, @platform, @created_at) ON CONFLICT (id) DO NOTHING")
    .run(vendor);
}

/** Copy the vendor's capture rows recorded after `afterId` into the scratch; returns how many, and the last id. */
export async function copyCaptureRows(main: RedlineDb, scratch: RedlineDb, vendorId: number, afterId: number, limit: number): Promise<{ copied: number; lastId: number; rows: Array<{ id: number; observedAt: string; source: string; hash: string }> }> {
  const rows = await statements(main).captures.all(vendorId, afterId, limit);
  const insert = scratch.$client.prepare(
    `INSERT OR IGNORE INTO captures (${CAPTURE_COPY}) VALUES (@id, @vendor_id, @source, @platform, @observed_at, @last_observed_at, @observations, @outcome, @error, @size, @hash,
       @body_id, @incident_count, 0, @recorded_at, @warnings, @warning_count, NULL)`,
  );
  const st = writeStatements(scratch);
  await transact(scratch, async () => {
    for (const row of rows) {
      insert.run(row);
      await st.registerSource.run(vendorId, String(row.source), String(row.platform));
    }
  });
  const lastId = rows.length > 0 ? Number(rows[rows.length - 1]?.id) : afterId;
  return {
    copied: rows.length,
    lastId,
    rows: rows.map((r) => ({ id: Number(r.id), observedAt: String(r.observed_at), source: String(r.source), hash: String(r.hash) })),
  };
}

export async function maxCaptureId(db: RedlineDb, vendorId: number): Promise<number> {
  return (await statements(db).maxCaptureId.get(vendorId))?.id ?? 0;
}

/** Every incident either database holds for the vendor, by provider id. */
export async function swapCandidates(main: RedlineDb, scratch: RedlineDb, vendorId: number): Promise<string[]> {
  const ids = async (db: RedlineDb) => (await statements(db).providerIds.all(vendorId)).map((r) => r.providerId);
  return [...new Set([...(await ids(main)), ...(await ids(scratch))])].sort();
}

/** An incident row of the scratch, as the main database's write statements take it. */
type ScratchIncident = Omit<IncidentValues, "seenAt" | "state"> & { id: number; lastSeenAt: string; state: PackedJson };

const INCIDENT_COLUMNS = `id, kind, title, status, impact, started_at AS startedAt, resolved_at AS resolvedAt, presence, source,
  first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt, observed_hash AS observedHash, version_count AS versionCount,
  last_changed_at AS lastChangedAt, postmortem_at AS postmortemAt, edits_after_resolution AS editsAfterResolution,
  (SELECT s.state FROM incident_states s WHERE s.incident_id = incidents.id ORDER BY s.id DESC LIMIT 1) AS state`;

/**
 * Replace these incidents' whole history in the main database with the scratch's: row, versions,
 * record states, listings, search entry and components. An incident the rebuilt history does not
 * have is deleted. Runs inside the caller's (main) transaction; returns the versions written.
 */
export async function swapIncidents(main: RedlineDb, scratch: RedlineDb, vendorId: number, providerIds: readonly string[]): Promise<number> {
  const s = scratch.$client;
  const st = writeStatements(main);
  const onMain = statements(main);
  const packed = main.connection.dialect.history.packed;
  const fromScratch = s.prepare<[number, string], ScratchIncident>(`SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE vendor_id = ? AND provider_id = ?`);
  const versions = s.prepare<[number], Omit<VersionValues, "incidentId" | "vendorId">>(
    `SELECT seq, observed_at AS observedAt, hash, snapshot, patch, kinds, content, text_version AS textVersion, capture_id AS captureId
       FROM incident_versions WHERE incident_id = ? ORDER BY seq`,
  );
  const states = s.prepare<[number], { captureId: number; state: PackedJson | null; patch: StoredPatch | null; depth: number }>(
    "SELECT capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id",
  );
  const removedText = s.prepare<[number, number], { removed: string }>(
    "SELECT e.removed FROM incident_versions v JOIN version_search e ON e.rowid = v.id WHERE v.incident_id = ? AND v.seq = ?",
  );
  const listings = s.prepare<[number], { source: string; listed: number; hash: string | null }>("SELECT source, listed, hash FROM incident_sources WHERE incident_id = ?");
  let written = 0;
  for (const providerId of providerIds) {
    const rebuilt = fromScratch.get(vendorId, providerId);
    const current = await onMain.incident.get(vendorId, providerId);
    if (!rebuilt) {
      if (current) await st.deleteIncident.run(current.id);
      continue;
    }
    const values = { ...rebuilt, seenAt: current && current.lastSeenAt > rebuilt.lastSeenAt ? current.lastSeenAt : rebuilt.lastSeenAt };
    let id: number;
    if (current) {
      id = current.id;
      await st.updateIncident.run({ ...values, id });
      await onMain.clearVersions.run(id);
      await onMain.clearStates.run(id);
      await st.deleteListings.run(id);
    } else {
      const inserted = await st.insertIncident.get({ ...values, vendorId, providerId });
      if (!inserted) throw new Error(`store: unable to insert incident ${providerId}`);
      id = inserted.id;
    }
    for (const v of versions.all(rebuilt.id)) {
      const row = await st.insertVersion.get({ ...v, snapshot: packed.write(v.snapshot), patch: packed.write(v.patch), incidentId: id, vendorId });
      if (!row) throw new Error(`store: unable to copy version ${v.seq} of ${providerId}`);
      await writeRows(main.connection, st.kindRows, versionKindRows(row.id, JSON.parse(v.kinds) as string[], vendorId, v.observedAt));
      const removed = removedText.get(rebuilt.id, v.seq);
      if (removed) await writeRows(main.connection, main.connection.dialect.record.removedTexts, [[row.id, removed.removed]]);
      written += 1;
    }
    for (const state of states.all(rebuilt.id)) await onMain.copyState.run(id, state.captureId, packed.write(state.state), packed.write(state.patch), state.depth);
    for (const l of listings.all(rebuilt.id)) await st.upsertIncidentSource.run(id, vendorId, l.source, l.listed, l.hash);
    const { incident } = JSON.parse(unpackJson(rebuilt.state)) as IncidentRecord;
    await reindexIncidents(main, vendorId, [{ id, incident, search: true, components: true }]);
  }
  return written;
}

/** Give the main database's capture rows what the rebuild read in them (outcome, warnings, versions). */
export async function swapCaptureReadings(main: RedlineDb, scratch: RedlineDb, vendorId: number, afterId: number, limit: number): Promise<{ lastId: number; count: number }> {
  const rows = scratch.$client
    .prepare<[number, number, number], Record<string, string | number | null>>(
      `SELECT id, outcome, error, incident_count, version_count, warnings, warning_count, window_start FROM captures WHERE vendor_id = ? AND id > ? ORDER BY id LIMIT ?`,
    )
    .all(vendorId, afterId, limit);
  const update = statements(main).captureReading;
  for (const row of rows) await update.run(row);
  return { lastId: rows.length > 0 ? Number(rows[rows.length - 1]?.id) : afterId, count: rows.length };
}

/**
 * Replace the vendor's component history and quiet degradations in the main database with the
 * scratch's (capture ids are the same in both). Runs inside the caller's (main) transaction, with
 * the swap of the applied-through point: the grid is a vendor's, not an incident's, and small.
 */
export async function swapComponents(main: RedlineDb, scratch: RedlineDb, vendorId: number): Promise<void> {
  const onMain = statements(main);
  await onMain.clearComponentStates.run(vendorId);
  await onMain.clearQuiet.run(vendorId);
  const states = scratch.$client
    .prepare<[number], Record<string, string | number | null> & { componentKey: string }>(
      `SELECT c.component_key AS componentKey, s.name, s.group_key AS groupKey, s.is_group AS isGroup, s.status, s.vendor_status AS vendorStatus, s.inferred, s.source,
         s.state_since AS since, s.vendor_changed_at AS vendorChangedAt, s.from_at AS fromAt, s.from_capture_id AS fromCaptureId, s.until_at AS untilAt, s.until_capture_id AS untilCaptureId
       FROM component_states s JOIN components c ON c.id = s.component_id WHERE s.vendor_id = ? ORDER BY s.id`,
    )
    .all(vendorId);
  const ids = new Map<string, number>();
  for (const { componentKey, ...state } of states) {
    let id = ids.get(componentKey);
    if (id === undefined) {
      id = (await onMain.component.get(vendorId, componentKey))?.id;
      if (id === undefined) throw new Error(`store: unable to register component ${componentKey} of vendor ${vendorId}`);
      ids.set(componentKey, id);
    }
    await onMain.copyComponentState.run({ ...state, componentId: id, vendorId });
  }
  const quiet = scratch.$client
    .prepare<[number], Record<string, string | number | null>>(
      `SELECT from_at AS fromAt, from_capture_id AS fromCaptureId, until_at AS untilAt, until_capture_id AS untilCaptureId, components
       FROM quiet_degradations WHERE vendor_id = ? ORDER BY id`,
    )
    .all(vendorId);
  for (const q of quiet) await onMain.copyQuiet.run({ ...q, vendorId });
}

/** The scratch's applied-through point becomes the main database's. */
export async function swapAppliedThrough(main: RedlineDb, scratch: RedlineDb, vendorId: number): Promise<void> {
  const row = scratch.$client
    .prepare<[number], { observedAt: string | null; source: string | null; hash: string | null }>(
      "SELECT applied_observed_at AS observedAt, applied_source AS source, applied_hash AS hash FROM vendors WHERE id = ?",
    )
    .get(vendorId);
  await setAppliedThrough(main, vendorId, row && row.observedAt !== null && row.source !== null && row.hash !== null ? { observedAt: row.observedAt, source: row.source, hash: row.hash } : null);
}

/**
 * How much each of the vendor's incidents would copy out of the scratch (bytes of its versions and
 * record states): swap batches are sized by it, so that each holds the write lock briefly.
 */
export async function scratchIncidentWeights(scratch: RedlineDb, vendorId: number): Promise<Map<string, number>> {
  const rows = scratch.$client
    .prepare<[number], { providerId: string; n: number }>(
      `SELECT i.provider_id AS providerId,
         coalesce((SELECT sum(coalesce(length(v.snapshot), 0) + coalesce(length(v.patch), 0) + length(v.content)) FROM incident_versions v WHERE v.incident_id = i.id), 0)
         + coalesce((SELECT sum(coalesce(length(s.state), 0) + coalesce(length(s.patch), 0)) FROM incident_states s WHERE s.incident_id = i.id), 0) AS n
       FROM incidents i WHERE i.vendor_id = ?`,
    )
    .all(vendorId);
  return new Map(rows.map((r) => [r.providerId, r.n]));
}
