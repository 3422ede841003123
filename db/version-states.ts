import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import type { IncidentState } from "@/lib/incident";
import { applyJsonPatch, diffJson, type JsonPatch, type JsonValue } from "@/lib/json-patch";
import { packJson, type PackedJson, unpackJson } from "@/db/packed-json";
import { preparedOnConnection } from "@/db/queries/prepared";

/**
 * A version keeps its full snapshot when it is the latest or its seq is 1 + a multiple of this;
 * the others keep a patch from the version before. Reading one replays at most this many patches.
 */
export const VERSION_CHECKPOINT = 16;

export function isVersionCheckpoint(seq: number): boolean {
  return (seq - 1) % VERSION_CHECKPOINT === 0;
}

export class VersionStateError extends Error {
  readonly kind = "version-state";
}

/** A stored version as replay reads it. */
export interface StoredStep {
  seq: number;
  snapshot: PackedJson | null;
  patch: string | null;
}

/**
 * The snapshot of every step, in order: a step with a snapshot starts over from it, one without is
 * the step before patched. The first step must hold a snapshot.
 */
export function replaySteps<T extends StoredStep>(steps: readonly T[]): Array<{ step: T; state: JsonValue }> {
  const out: Array<{ step: T; state: JsonValue }> = [];
  let state: JsonValue | undefined;
  for (const step of steps) {
    if (step.snapshot !== null) state = JSON.parse(unpackJson(step.snapshot)) as JsonValue;
    else if (state !== undefined && step.patch !== null) state = applyJsonPatch(state, JSON.parse(step.patch) as JsonPatch);
    else throw new VersionStateError(`store: version ${step.seq} has neither a snapshot nor a patch to replay from`);
    out.push({ step, state });
  }
  return out;
}

function prepare(sqlite: Database.Database) {
  return {
    // The nearest full snapshot at or before seq is at most VERSION_CHECKPOINT rows back on the identity index.
    range: sqlite.prepare<[number, number, number, number], StoredStep>(
      `SELECT seq, snapshot, patch FROM incident_versions WHERE incident_id = ? AND seq <= ?
         AND seq >= (SELECT max(seq) FROM incident_versions WHERE incident_id = ? AND seq <= ? AND snapshot IS NOT NULL)
       ORDER BY seq`,
    ),
    snapshotAt: sqlite.prepare<[number, number], { snapshot: PackedJson | null }>("SELECT snapshot FROM incident_versions WHERE incident_id = ? AND seq = ?"),
    dropSnapshot: sqlite.prepare<[number, number]>("UPDATE incident_versions SET snapshot = NULL WHERE incident_id = ? AND seq = ? AND patch IS NOT NULL"),
    setSnapshot: sqlite.prepare<[PackedJson, number, number]>("UPDATE incident_versions SET snapshot = ? WHERE incident_id = ? AND seq = ?"),
    latestSeq: sqlite.prepare<[number], { seq: number | null }>("SELECT max(seq) AS seq FROM incident_versions WHERE incident_id = ?"),
  };
}

const st = preparedOnConnection(prepare);

/** The snapshot JSON of one stored version, rebuilt by replay when it keeps only a patch. */
export function readVersionSnapshotText(sqlite: Database.Database, incidentId: number, seq: number): string | undefined {
  const steps = st(sqlite).range.all(incidentId, seq, incidentId, seq);
  const last = steps.at(-1);
  if (!last || last.seq !== seq) return undefined;
  if (last.snapshot !== null) return unpackJson(last.snapshot);
  return JSON.stringify(replaySteps(steps).at(-1)?.state);
}

/** The incident as it was at one version (its full state); undefined when there is no such version. */
export function readVersionState(db: RedlineDb, incidentId: number, seq: number): IncidentState | undefined {
  const steps = st(db.$client).range.all(incidentId, seq, incidentId, seq);
  if (steps.at(-1)?.seq !== seq) return undefined;
  return replaySteps(steps).at(-1)?.state as IncidentState | undefined;
}

/**
 * What to store for a new version: its snapshot (the latest keeps one) and its patch from the
 * version before, which stops keeping its snapshot unless it is a checkpoint. Runs in the writer's transaction.
 */
export function versionStorage(sqlite: Database.Database, incidentId: number, seq: number, snapshot: string): { snapshot: PackedJson; patch: string | null } {
  if (seq === 1) return { snapshot: packJson(snapshot), patch: null };
  const s = st(sqlite);
  const kept = s.snapshotAt.get(incidentId, seq - 1)?.snapshot;
  const previous = kept !== null && kept !== undefined ? unpackJson(kept) : readVersionSnapshotText(sqlite, incidentId, seq - 1);
  if (previous === undefined) return { snapshot: packJson(snapshot), patch: null };
  const patch = JSON.stringify(diffJson(JSON.parse(previous) as JsonValue, JSON.parse(snapshot) as JsonValue));
  if (!isVersionCheckpoint(seq - 1)) s.dropSnapshot.run(incidentId, seq - 1);
  return { snapshot: packJson(snapshot), patch };
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
  s.setSnapshot.run(packJson(text), incidentId, seq);
}
