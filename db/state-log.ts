import type Database from "better-sqlite3";
import { packJson, type PackedJson, unpackJson } from "@/db/packed-json";
import { applyJsonPatch, diffJson, type JsonPatch, type JsonValue } from "@/lib/json-patch";
import { preparedOnConnection } from "@/db/queries/prepared";

/**
 * The log of an incident's records (incident_states): the latest row and every row of depth 0
 * keep the full record, the others a patch from the row before. A row becomes a checkpoint after
 * this many patches, so rebuilding any row replays at most this many.
 */
export const STATE_CHECKPOINT = 16;

export class StateLogError extends Error {
  readonly kind = "state-log";
}

interface StateRow {
  id: number;
  state: PackedJson | null;
  patch: string | null;
  depth: number;
}

function prepare(sqlite: Database.Database) {
  return {
    latest: sqlite.prepare<[number], StateRow>("SELECT id, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id DESC LIMIT 1"),
    insert: sqlite.prepare<[number, number, PackedJson, string | null, number]>(
      "INSERT INTO incident_states (incident_id, capture_id, state, patch, depth) VALUES (?, ?, ?, ?, ?)",
    ),
    dropState: sqlite.prepare<[number]>("UPDATE incident_states SET state = NULL WHERE id = ? AND patch IS NOT NULL AND depth > 0"),
    setState: sqlite.prepare<[PackedJson, number]>("UPDATE incident_states SET state = ? WHERE id = ?"),
    range: sqlite.prepare<[number, number, number, number], StateRow>(
      `SELECT id, state, patch, depth FROM incident_states WHERE incident_id = ? AND id <= ?
         AND id >= (SELECT max(id) FROM incident_states WHERE incident_id = ? AND id <= ? AND state IS NOT NULL)
       ORDER BY id`,
    ),
  };
}

const st = preparedOnConnection(prepare);

/** Rebuild one row's record from the nearest full row before it. */
function rebuildState(sqlite: Database.Database, incidentId: number, id: number): string {
  let state: JsonValue | undefined;
  for (const row of st(sqlite).range.all(incidentId, id, incidentId, id)) {
    if (row.state !== null) state = JSON.parse(unpackJson(row.state)) as JsonValue;
    else if (state !== undefined && row.patch !== null) state = applyJsonPatch(state, JSON.parse(row.patch) as JsonPatch);
    else throw new StateLogError(`store: record state ${row.id} of incident ${incidentId} cannot be rebuilt`);
  }
  if (state === undefined) throw new StateLogError(`store: incident ${incidentId} has no full record state before ${id}`);
  return JSON.stringify(state);
}

/** Log an incident's new record as of a capture. Runs in the writer's transaction. */
export function appendState(sqlite: Database.Database, incidentId: number, captureId: number, state: string): void {
  const s = st(sqlite);
  const previous = s.latest.get(incidentId);
  const depth = previous ? previous.depth + 1 : 0;
  if (!previous || depth >= STATE_CHECKPOINT) s.insert.run(incidentId, captureId, packJson(state), null, 0);
  else {
    const before = previous.state !== null ? unpackJson(previous.state) : rebuildState(sqlite, incidentId, previous.id);
    const patch = JSON.stringify(diffJson(JSON.parse(before) as JsonValue, JSON.parse(state) as JsonValue));
    s.insert.run(incidentId, captureId, packJson(state), patch, depth);
  }
  if (previous) s.dropState.run(previous.id);
}

/** The incident's latest logged record, made full again if rows after it were deleted; undefined when none is left. */
export function keepLatestState(sqlite: Database.Database, incidentId: number): string | undefined {
  const s = st(sqlite);
  const latest = s.latest.get(incidentId);
  if (!latest) return undefined;
  if (latest.state !== null) return unpackJson(latest.state);
  const text = rebuildState(sqlite, incidentId, latest.id);
  s.setState.run(packJson(text), latest.id);
  return text;
}

/** Each logged row's full record, in order, rebuilding the ones kept as patches. */
export function replayStateRows<T extends { state: PackedJson | null; patch: string | null }>(rows: readonly T[]): string[] {
  let state: JsonValue | undefined;
  return rows.map((row) => {
    if (row.state !== null) {
      const text = unpackJson(row.state);
      state = JSON.parse(text) as JsonValue;
      return text;
    }
    if (state === undefined || row.patch === null) throw new StateLogError("store: a record state without a full state before it");
    state = applyJsonPatch(state, JSON.parse(row.patch) as JsonPatch);
    return JSON.stringify(state);
  });
}
