import type { Connection, RedlineDb } from "@/db/driver/database";
import { encodeReverseDelta, resolveChain, resolveRow, type StoredPatch } from "@/db/history/json-deltas";
import { packJson, type PackedJson, unpackJson } from "@/db/history/packed-json";
import { statementsFor } from "@/db/driver/prepared";
import { readStateAtCapture, statesByCapture } from "@/db/history/state-log";
import { type IncidentRecord, recordState } from "@/lib/derive/incident-record";
import type { IncidentState } from "@/lib/incident";
import type { JsonValue } from "@/lib/json-patch";

/**
 * A version keeps its full snapshot when it is the latest or its seq is a multiple of this; the
 * others keep a reverse delta against the version after (db/history/json-deltas.ts), so an incident with
 * fewer versions keeps one full copy. Reading one decodes at most this many minus one.
 */
export const VERSION_CHECKPOINT = 16;

export function isVersionCheckpoint(seq: number): boolean {
  return seq % VERSION_CHECKPOINT === 0;
}

export class VersionStateError extends Error {
  readonly kind = "version-state";
}

/** A stored version as replay reads it. */
export interface StoredStep {
  seq: number;
  snapshot: PackedJson | null;
  patch: StoredPatch | null;
  captureId: number;
}

/**
 * A version that keeps neither a snapshot nor a patch is its incident's record logged at the same
 * capture, as the version shows it (recordState): the record holds the snapshot already, so the
 * version stores nothing of it. Never part of a delta chain.
 */
export function isProjected(step: { snapshot: unknown; patch: unknown }): boolean {
  return step.snapshot === null && step.patch === null;
}

/** The snapshot text a version shows, from the record text logged with it. */
export function projectRecord(recordText: string): string {
  return JSON.stringify(recordState(JSON.parse(recordText) as IncidentRecord));
}

/**
 * The snapshot of every step, in order; `steps` run from an incident's first version or a full one
 * to its latest. `recordAt` gives the record logged at a capture, for the steps that are projected.
 */
export function replaySteps<T extends StoredStep>(steps: readonly T[], recordAt: (captureId: number) => string | undefined): Array<{ step: T; state: JsonValue }> {
  const chained = steps.filter((s) => !isProjected(s));
  const texts = resolveChain(
    chained.map((s) => ({ full: s.snapshot, patch: s.patch })),
    (i) => `version ${chained[i]?.seq ?? "?"}`,
  );
  const byStep = new Map<T, string>(chained.map((s, i) => [s, texts[i] ?? "null"]));
  return steps.map((step) => {
    let text = byStep.get(step);
    if (text === undefined) {
      const record = recordAt(step.captureId);
      if (record === undefined) throw new VersionStateError(`store: version ${step.seq} has no record logged at its capture ${step.captureId}`);
      text = projectRecord(record);
    }
    return { step, state: JSON.parse(text) as JsonValue };
  });
}

/** Every version of one incident replayed, reading its logged records only if a version is projected. */
export async function replayIncidentSteps<T extends StoredStep>(db: RedlineDb, incidentId: number, steps: readonly T[]): Promise<Array<{ step: T; state: JsonValue }>> {
  const records = steps.some(isProjected) ? await statesByCapture(db, incidentId) : new Map<number, string>();
  return replaySteps(steps, (captureId) => records.get(captureId));
}

function prepare(c: Connection) {
  return {
    one: c.prepare<[number, number], StoredStep>("SELECT seq, snapshot, patch, capture_id AS captureId FROM incident_versions WHERE incident_id = ? AND seq = ?"),
    // From the nearest full snapshot at or before seq to the nearest at or after, on the identity index.
    around: c.prepare<{ incident: number; seq: number }, StoredStep>(
      `SELECT seq, snapshot, patch, capture_id AS captureId FROM incident_versions WHERE incident_id = @incident
         AND seq >= coalesce((SELECT max(seq) FROM incident_versions WHERE incident_id = @incident AND seq <= @seq AND snapshot IS NOT NULL), @seq)
         AND seq <= coalesce((SELECT min(seq) FROM incident_versions WHERE incident_id = @incident AND seq >= @seq AND snapshot IS NOT NULL), @seq)
       ORDER BY seq`,
    ),
    snapshotAt: c.prepare<[number, number], { snapshot: PackedJson | null; patch: StoredPatch | null }>("SELECT snapshot, patch FROM incident_versions WHERE incident_id = ? AND seq = ?"),
    toDelta: c.prepare<[Buffer, number, number]>("UPDATE incident_versions SET snapshot = NULL, patch = ? WHERE incident_id = ? AND seq = ?"),
    setFull: c.prepare<[PackedJson, number, number]>("UPDATE incident_versions SET snapshot = ?, patch = NULL WHERE incident_id = ? AND seq = ?"),
    latestSeq: c.prepare<[number], { seq: number | null }>("SELECT max(seq) AS seq FROM incident_versions WHERE incident_id = ?"),
    lastKept: c.prepare<{ incident: number; captures: string }, { seq: number; snapshot: PackedJson | null; patch: StoredPatch | null }>(
      `SELECT seq, snapshot, patch FROM incident_versions WHERE incident_id = @incident AND capture_id NOT IN (${c.dialect.operations.listedIds("captures")})
       ORDER BY seq DESC LIMIT 1`,
    ),
  };
}

const statements = statementsFor(prepare);

/** A version's stored forms as written: packed columns come back from PostgreSQL as bytes. */
export function storedStep<T extends { snapshot: PackedJson | null; patch: StoredPatch | null }>(db: RedlineDb, row: T): T {
  return db.connection.dialect.history.packed.row(row, ["snapshot", "patch"]);
}

/** Where a stored version's snapshot is: its own text (rebuilt from the full snapshots around it), or the record logged with it. */
async function locateVersion(db: RedlineDb, incidentId: number, seq: number): Promise<{ text: string } | { record: string } | undefined> {
  const s = statements(db);
  const row = await s.one.get(incidentId, seq);
  if (!row) return undefined;
  if (isProjected(row)) {
    const record = await readStateAtCapture(db, incidentId, row.captureId);
    if (record === undefined) throw new VersionStateError(`store: version ${seq} of incident ${incidentId} has no record logged at its capture ${row.captureId}`);
    return { record };
  }
  const steps = (await s.around.all({ incident: incidentId, seq })).filter((step) => !isProjected(step)).map((step) => storedStep(db, step));
  const target = steps.findIndex((step) => step.seq === seq);
  if (target < 0) return undefined;
  const text = resolveRow(
    steps.map((s) => ({ full: s.snapshot, patch: s.patch })),
    target,
    () => `version ${seq} of incident ${incidentId}`,
  );
  return { text };
}

/** The snapshot JSON of one stored version; undefined when there is no such version. */
export async function readVersionSnapshotText(db: RedlineDb, incidentId: number, seq: number): Promise<string | undefined> {
  const found = await locateVersion(db, incidentId, seq);
  return found === undefined ? undefined : "text" in found ? found.text : projectRecord(found.record);
}

/**
 * The incident as it was at one version (its full state); undefined when there is no such version.
 * A projected version's state is taken from its parsed record, not written out as text and parsed again.
 */
export async function readVersionState(db: RedlineDb, incidentId: number, seq: number): Promise<IncidentState | undefined> {
  const found = await locateVersion(db, incidentId, seq);
  if (found === undefined) return undefined;
  return "text" in found ? (JSON.parse(found.text) as IncidentState) : recordState(JSON.parse(found.record) as IncidentRecord);
}

/**
 * What to store for a new version: nothing when `record` (the record text logged with it at the
 * same capture) projects to its snapshot, as derivation makes it; else its full snapshot (the
 * latest keeps one), and the version before, if full, becomes a delta against it unless it is a
 * checkpoint. Runs in the writer's transaction. The snapshot returned is ready to bind.
 */
export async function versionStorage(
  db: RedlineDb,
  incidentId: number,
  seq: number,
  snapshot: string,
  record: string,
): Promise<{ snapshot: PackedJson | null; patch: StoredPatch | null }> {
  if (projectRecord(record) === snapshot) return { snapshot: null, patch: null };
  if (seq > 1 && !isVersionCheckpoint(seq - 1)) {
    const s = statements(db);
    const before = await s.snapshotAt.get(incidentId, seq - 1);
    const kept = before && storedStep(db, before).snapshot;
    // A projected version before keeps nothing to turn into a delta.
    if (kept !== null && kept !== undefined) await s.toDelta.run(encodeReverseDelta(snapshot, unpackJson(kept)), incidentId, seq - 1);
  }
  return { snapshot: db.connection.dialect.history.packed.write(packJson(snapshot)), patch: null };
}

/**
 * Before the versions of these captures are deleted (always an incident's newest), the version
 * that will be its latest keeps its full snapshot: its delta is against a version about to go.
 */
export async function keepSnapshotBeforeDeleting(db: RedlineDb, incidentId: number, captureIdsJson: string): Promise<void> {
  const s = statements(db);
  const kept = await s.lastKept.get({ incident: incidentId, captures: captureIdsJson });
  if (!kept || kept.snapshot !== null || isProjected(kept)) return;
  const text = await readVersionSnapshotText(db, incidentId, kept.seq);
  if (text === undefined) throw new VersionStateError(`store: version ${kept.seq} of incident ${incidentId} cannot be rebuilt`);
  await s.setFull.run(db.connection.dialect.history.packed.write(packJson(text)), incidentId, kept.seq);
}

/** After versions were taken off the end of an incident's history, its new latest keeps a full snapshot again. */
export async function keepLatestSnapshot(db: RedlineDb, incidentId: number): Promise<void> {
  const s = statements(db);
  const seq = (await s.latestSeq.get(incidentId))?.seq;
  if (seq === null || seq === undefined) return;
  const kept = await s.snapshotAt.get(incidentId, seq);
  if (!kept || kept.snapshot !== null || isProjected(kept)) return;
  const text = await readVersionSnapshotText(db, incidentId, seq);
  if (text === undefined) throw new VersionStateError(`store: version ${seq} of incident ${incidentId} cannot be rebuilt`);
  await s.setFull.run(db.connection.dialect.history.packed.write(packJson(text)), incidentId, seq);
}
