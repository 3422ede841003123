import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import { encodeReverseDelta, resolveChain, resolveRow, type StoredPatch } from "@/db/json-deltas";
import { packJson, type PackedJson, unpackJson } from "@/db/packed-json";
import { preparedOnConnection } from "@/db/queries/prepared";
import type { IncidentState } from "@/lib/incident";
import type { JsonValue } from "@/lib/json-patch";

/**
 * A version keeps its full snapshot when it is the latest or its seq is a multiple of this; the
 * others keep a reverse delta against the version after (db/json-deltas.ts), so an incident with
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
}

/** The snapshot of every step, in order; `steps` run from an incident's first version or a full one to its latest. */
export function replaySteps<T extends StoredStep>(steps: readonly T[]): Array<{ step: T; state: JsonValue }> {
  const texts = resolveChain(
    steps.map((s) => ({ full: s.snapshot, patch: s.patch })),
    (i) => `version ${steps[i]?.seq ?? "?"}`,
  );
  return steps.map((step, i) => ({ step, state: JSON.parse(texts[i] ?? "null") as JsonValue }));
}

function prepare(sqlite: Database.Database) {
  return {
    // From the nearest full snapshot at or before seq to the nearest at or after, on the identity index.
    around: sqlite.prepare<{ incident: number; seq: number }, StoredStep>(
      `SELECT seq, snapshot, patch FROM incident_versions WHERE incident_id = @incident
         AND seq >= coalesce((SELECT max(seq) FROM incident_versions WHERE incident_id = @incident AND seq <= @seq AND snapshot IS NOT NULL), @seq)
         AND seq <= coalesce((SELECT min(seq) FROM incident_versions WHERE incident_id = @incident AND seq >= @seq AND snapshot IS NOT NULL), @seq)
       ORDER BY seq`,
    ),
    snapshotAt: sqlite.prepare<[number, number], { snapshot: PackedJson | null }>("SELECT snapshot FROM incident_versions WHERE incident_id = ? AND seq = ?"),
    toDelta: sqlite.prepare<[Buffer, number, number]>("UPDATE incident_versions SET snapshot = NULL, patch = ? WHERE incident_id = ? AND seq = ?"),
    setFull: sqlite.prepare<[PackedJson, number, number]>("UPDATE incident_versions SET snapshot = ?, patch = NULL WHERE incident_id = ? AND seq = ?"),
    latestSeq: sqlite.prepare<[number], { seq: number | null }>("SELECT max(seq) AS seq FROM incident_versions WHERE incident_id = ?"),
    lastKept: sqlite.prepare<[number, string], { seq: number; snapshot: PackedJson | null }>(
      `SELECT seq, snapshot FROM incident_versions WHERE incident_id = ? AND capture_id NOT IN (SELECT value FROM json_each(?))
       ORDER BY seq DESC LIMIT 1`,
    ),
  };
}

const st = preparedOnConnection(prepare);

/** The snapshot JSON of one stored version, rebuilt from the full snapshots around it when it keeps only a patch. */
export function readVersionSnapshotText(sqlite: Database.Database, incidentId: number, seq: number): string | undefined {
  const steps = st(sqlite).around.all({ incident: incidentId, seq });
  const target = steps.findIndex((s) => s.seq === seq);
  if (target < 0) return undefined;
  return resolveRow(
    steps.map((s) => ({ full: s.snapshot, patch: s.patch })),
    target,
    () => `version ${seq} of incident ${incidentId}`,
  );
}

/** The incident as it was at one version (its full state); undefined when there is no such version. */
export function readVersionState(db: RedlineDb, incidentId: number, seq: number): IncidentState | undefined {
  const text = readVersionSnapshotText(db.$client, incidentId, seq);
  return text === undefined ? undefined : (JSON.parse(text) as IncidentState);
}

/**
 * What to store for a new version: its full snapshot (the latest keeps one). The version before
 * becomes a delta against it unless it is a checkpoint. Runs in the writer's transaction.
 */
export function versionStorage(sqlite: Database.Database, incidentId: number, seq: number, snapshot: string): { snapshot: PackedJson; patch: StoredPatch | null } {
  if (seq > 1 && !isVersionCheckpoint(seq - 1)) {
    const s = st(sqlite);
    const kept = s.snapshotAt.get(incidentId, seq - 1)?.snapshot;
    const previous = kept !== null && kept !== undefined ? unpackJson(kept) : readVersionSnapshotText(sqlite, incidentId, seq - 1);
    if (previous !== undefined) s.toDelta.run(encodeReverseDelta(snapshot, previous), incidentId, seq - 1);
  }
  return { snapshot: packJson(snapshot), patch: null };
}

/**
 * Before the versions of these captures are deleted (always an incident's newest), the version
 * that will be its latest keeps its full snapshot: its delta is against a version about to go.
 */
export function keepSnapshotBeforeDeleting(sqlite: Database.Database, incidentId: number, captureIdsJson: string): void {
  const s = st(sqlite);
  const kept = s.lastKept.get(incidentId, captureIdsJson);
  if (!kept || kept.snapshot !== null) return;
  const text = readVersionSnapshotText(sqlite, incidentId, kept.seq);
  if (text === undefined) throw new VersionStateError(`store: version ${kept.seq} of incident ${incidentId} cannot be rebuilt`);
  s.setFull.run(packJson(text), incidentId, kept.seq);
}

/** After versions were taken off the end of an incident's history, its new latest keeps a full snapshot again. */
export function keepLatestSnapshot(sqlite: Database.Database, incidentId: number): void {
  const s = st(sqlite);
  const seq = s.latestSeq.get(incidentId)?.seq;
  if (seq === null || seq === undefined) return;
  const kept = s.snapshotAt.get(incidentId, seq)?.snapshot;
  if (kept !== null && kept !== undefined) return;
  const text = readVersionSnapshotText(sqlite, incidentId, seq);
  if (text === undefined) throw new VersionStateError(`store: version ${seq} of incident ${incidentId} cannot be rebuilt`);
  s.setFull.run(packJson(text), incidentId, seq);
}
