import type Database from "better-sqlite3";
import { encodeReverseDelta, resolveChain, resolveRow, type StoredPatch } from "@/db/json-deltas";
import { packJson, type PackedJson, unpackJson } from "@/db/packed-json";
import { preparedOnConnection } from "@/db/queries/prepared";

/**
 * The log of an incident's records (incident_states): the latest row and every checkpoint (the
 * last depth) keep the full record, the others a reverse delta against the row after
 * (db/json-deltas.ts). Depth is the row's place since the incident's first, modulo this.
 */
export const STATE_CHECKPOINT = 16;

export function isStateCheckpoint(depth: number): boolean {
  return depth === STATE_CHECKPOINT - 1;
}

export class StateLogError extends Error {
  readonly kind = "state-log";
}

interface StateRow {
  id: number;
  captureId: number;
  state: PackedJson | null;
  patch: StoredPatch | null;
  depth: number;
}

function prepare(sqlite: Database.Database) {
  return {
    latest: sqlite.prepare<[number], StateRow>("SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id DESC LIMIT 1"),
    insert: sqlite.prepare<[number, number, PackedJson | null, Buffer | null, number]>("INSERT INTO incident_states (incident_id, capture_id, state, patch, depth) VALUES (?, ?, ?, ?, ?)"),
    remove: sqlite.prepare<[number]>("DELETE FROM incident_states WHERE id = ?"),
    setFull: sqlite.prepare<[PackedJson, number]>("UPDATE incident_states SET state = ?, patch = NULL WHERE id = ?"),
    // From the nearest full row at or before id to the nearest at or after: forward patches need the first, reverse deltas the last.
    around: sqlite.prepare<{ incident: number; id: number }, StateRow>(
      `SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = @incident
         AND id >= coalesce((SELECT max(id) FROM incident_states WHERE incident_id = @incident AND id <= @id AND state IS NOT NULL), @id)
         AND id <= coalesce((SELECT min(id) FROM incident_states WHERE incident_id = @incident AND id >= @id AND state IS NOT NULL), @id)
       ORDER BY id`,
    ),
    atCapture: sqlite.prepare<[number, number], { id: number }>("SELECT id FROM incident_states WHERE capture_id = ? AND incident_id = ? ORDER BY id DESC LIMIT 1"),
    all: sqlite.prepare<[number], StateRow>("SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id"),
    lastKept: sqlite.prepare<[number, string], StateRow>(
      `SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = ? AND capture_id NOT IN (SELECT value FROM json_each(?))
       ORDER BY id DESC LIMIT 1`,
    ),
  };
}

const st = preparedOnConnection(prepare);

/** One row's record, rebuilt from the full rows around it. */
function readStateText(sqlite: Database.Database, incidentId: number, id: number): string {
  const rows = st(sqlite).around.all({ incident: incidentId, id });
  return resolveRow(
    rows.map((r) => ({ full: r.state, patch: r.patch })),
    rows.findIndex((r) => r.id === id),
    () => `record state ${id} of incident ${incidentId}`,
  );
}

/** Log an incident's new record as of a capture. Runs in the writer's transaction. */
export function appendState(sqlite: Database.Database, incidentId: number, captureId: number, state: string): void {
  const s = st(sqlite);
  const previous = s.latest.get(incidentId);
  const depth = previous && previous.depth + 1 < STATE_CHECKPOINT ? previous.depth + 1 : 0;
  if (previous && !isStateCheckpoint(previous.depth)) {
    const before = previous.state !== null ? unpackJson(previous.state) : readStateText(sqlite, incidentId, previous.id);
    // Moved to the end rather than shrunk in place: a shrunk row leaves its page mostly empty, as
    // rows are only ever added at the end; ids are used only for order, which this keeps.
    s.remove.run(previous.id);
    s.insert.run(incidentId, previous.captureId, null, encodeReverseDelta(state, before), previous.depth);
  }
  s.insert.run(incidentId, captureId, packJson(state), null, depth);
}

/**
 * Before the rows of these captures are deleted (always an incident's newest), the row that will
 * be its latest keeps its full record: its delta is against a row about to go.
 */
export function keepStateBeforeDeleting(sqlite: Database.Database, incidentId: number, captureIdsJson: string): void {
  const s = st(sqlite);
  const kept = s.lastKept.get(incidentId, captureIdsJson);
  if (!kept || kept.state !== null) return;
  s.setFull.run(packJson(readStateText(sqlite, incidentId, kept.id)), kept.id);
}

/** The incident's latest logged record, made full again if it is not; undefined when none is left. */
export function keepLatestState(sqlite: Database.Database, incidentId: number): string | undefined {
  const s = st(sqlite);
  const latest = s.latest.get(incidentId);
  if (!latest) return undefined;
  if (latest.state !== null) return unpackJson(latest.state);
  const text = readStateText(sqlite, incidentId, latest.id);
  s.setFull.run(packJson(text), latest.id);
  return text;
}

/** Each logged row's full record, in order; `rows` are an incident's rows from its first or a full one to its last. */
export function replayStateRows<T extends { state: PackedJson | null; patch: StoredPatch | null }>(rows: readonly T[]): string[] {
  return resolveChain(
    rows.map((r) => ({ full: r.state, patch: r.patch })),
    (i) => `record state ${i + 1} of ${rows.length}`,
  );
}

/** The record an incident was logged with as of a capture; undefined when that capture logged none for it. */
export function readStateAtCapture(sqlite: Database.Database, incidentId: number, captureId: number): string | undefined {
  const row = st(sqlite).atCapture.get(captureId, incidentId);
  return row ? readStateText(sqlite, incidentId, row.id) : undefined;
}

/** Every record an incident was logged with, by the capture that logged it (the last, if one logged two). */
export function statesByCapture(sqlite: Database.Database, incidentId: number): Map<number, string> {
  const rows = st(sqlite).all.all(incidentId);
  const texts = replayStateRows(rows);
  return new Map(rows.map((r, i) => [r.captureId, texts[i] ?? ""]));
}
