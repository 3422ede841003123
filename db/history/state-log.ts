import type { Connection, RedlineDb } from "@/db/driver/database";
import { encodeReverseDelta, resolveChain, resolveRow, type StoredPatch } from "@/db/history/json-deltas";
import { packJson, type PackedJson, unpackJson } from "@/db/history/packed-json";
import { writeRows } from "@/db/driver/batch";
import { statementsFor } from "@/db/driver/prepared";

/**
 * The log of an incident's records (incident_states): the latest row and every checkpoint (the
 * last depth) keep the full record, the others a reverse delta against the row after
 * (db/history/json-deltas.ts). Depth is the row's place since the incident's first, modulo this.
 */
export const STATE_CHECKPOINT = 16;

export function isStateCheckpoint(depth: number): boolean {
  return depth === STATE_CHECKPOINT - 1;
}

export class StateLogError extends Error {
  readonly kind = "state-log";
}

/** A logged row of an incident's records. */
export interface StateRow {
  id: number;
  captureId: number;
  state: PackedJson | null;
  patch: StoredPatch | null;
  depth: number;
}

function prepare(c: Connection) {
  return {
    latest: c.prepare<[number], StateRow>("SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id DESC LIMIT 1"),
    latestOf: c.prepare<{ incidents: string }, StateRow & { incidentId: number }>(
      `SELECT id, incident_id AS incidentId, capture_id AS captureId, state, patch, depth FROM incident_states
       WHERE id IN (SELECT max(id) FROM incident_states WHERE incident_id IN (${c.dialect.operations.listedIds("incidents")}) GROUP BY incident_id)`,
    ),
    removeAll: c.prepare<{ ids: string }>(`DELETE FROM incident_states WHERE id IN (${c.dialect.operations.listedIds("ids")})`),
    setFull: c.prepare<[PackedJson, number]>("UPDATE incident_states SET state = ?, patch = NULL WHERE id = ?"),
    // From the nearest full row at or before id to the nearest at or after: forward patches need the first, reverse deltas the last.
    around: c.prepare<{ incident: number; id: number }, StateRow>(
      `SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = @incident
         AND id >= coalesce((SELECT max(id) FROM incident_states WHERE incident_id = @incident AND id <= @id AND state IS NOT NULL), @id)
         AND id <= coalesce((SELECT min(id) FROM incident_states WHERE incident_id = @incident AND id >= @id AND state IS NOT NULL), @id)
       ORDER BY id`,
    ),
    atCapture: c.prepare<[number, number], { id: number }>("SELECT id FROM incident_states WHERE capture_id = ? AND incident_id = ? ORDER BY id DESC LIMIT 1"),
    all: c.prepare<[number], StateRow>("SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = ? ORDER BY id"),
    lastKept: c.prepare<{ incident: number; captures: string }, StateRow>(
      `SELECT id, capture_id AS captureId, state, patch, depth FROM incident_states WHERE incident_id = @incident AND capture_id NOT IN (${c.dialect.operations.listedIds("captures")})
       ORDER BY id DESC LIMIT 1`,
    ),
  };
}

const statements = statementsFor(prepare);

/** Rows as written: packed columns come back from PostgreSQL as bytes. */
const stored = (db: RedlineDb, row: StateRow): StateRow => db.connection.dialect.history.packed.row(row, ["state", "patch"]);

/** One row's record, rebuilt from the full rows around it. */
async function readStateText(db: RedlineDb, incidentId: number, id: number): Promise<string> {
  const rows = (await statements(db).around.all({ incident: incidentId, id })).map((r) => stored(db, r));
  return resolveRow(
    rows.map((r) => ({ full: r.state, patch: r.patch })),
    rows.findIndex((r) => r.id === id),
    () => `record state ${id} of incident ${incidentId}`,
  );
}

/** An incident's new record as of a capture, to log. */
export interface NewState {
  incidentId: number;
  captureId: number;
  /** The record as JSON. */
  state: string;
  /** Whether the incident may have logged records before (false for one inserted in this transaction). */
  known: boolean;
  /** Its latest logged row as read in this transaction (null: none); read here when not given. */
  latest?: StateRow | null;
}

const INSERT_STATES = { into: "INSERT INTO incident_states (incident_id, capture_id, state, patch, depth)", row: "(?, ?, ?, ?, ?)" };

/**
 * Log incidents' new records as of a capture, each incident at most once: one read of their latest
 * rows, one delete and one insert for all of them. Runs in the writer's transaction.
 */
export async function appendStates(db: RedlineDb, entries: readonly NewState[]): Promise<void> {
  if (entries.length === 0) return;
  const s = statements(db);
  const latest = new Map<number, StateRow>();
  for (const e of entries) if (e.latest) latest.set(e.incidentId, stored(db, e.latest));
  const unread = entries.filter((e) => e.known && e.latest === undefined).map((e) => e.incidentId);
  if (unread.length > 0) {
    for (const row of await s.latestOf.all({ incidents: JSON.stringify(unread) })) latest.set(row.incidentId, stored(db, row));
  }
  const removed: number[] = [];
  const rows: unknown[][] = [];
  const { packed } = db.connection.dialect.history;
  for (const { incidentId, captureId, state } of entries) {
    const previous = latest.get(incidentId);
    const depth = previous && previous.depth + 1 < STATE_CHECKPOINT ? previous.depth + 1 : 0;
    if (previous && !isStateCheckpoint(previous.depth)) {
      const before = previous.state !== null ? unpackJson(previous.state) : await readStateText(db, incidentId, previous.id);
      // Moved to the end rather than shrunk in place: a shrunk row leaves its page mostly empty, as
      // rows are only ever added at the end; ids are used only for order, which this keeps.
      removed.push(previous.id);
      rows.push([incidentId, previous.captureId, null, encodeReverseDelta(state, before), previous.depth]);
    }
    rows.push([incidentId, captureId, packed.write(packJson(state)), null, depth]);
  }
  if (removed.length > 0) await s.removeAll.run({ ids: JSON.stringify(removed) });
  await writeRows(db.connection, INSERT_STATES, rows);
}

/**
 * Before the rows of these captures are deleted (always an incident's newest), the row that will
 * be its latest keeps its full record: its delta is against a row about to go.
 */
export async function keepStateBeforeDeleting(db: RedlineDb, incidentId: number, captureIdsJson: string): Promise<void> {
  const s = statements(db);
  const kept = await s.lastKept.get({ incident: incidentId, captures: captureIdsJson });
  if (!kept || kept.state !== null) return;
  await s.setFull.run(db.connection.dialect.history.packed.write(packJson(await readStateText(db, incidentId, kept.id))), kept.id);
}

/** The incident's latest logged record, made full again if it is not; undefined when none is left. */
export async function keepLatestState(db: RedlineDb, incidentId: number): Promise<string | undefined> {
  const s = statements(db);
  const row = await s.latest.get(incidentId);
  if (!row) return undefined;
  const latest = stored(db, row);
  if (latest.state !== null) return unpackJson(latest.state);
  const text = await readStateText(db, incidentId, latest.id);
  await s.setFull.run(db.connection.dialect.history.packed.write(packJson(text)), latest.id);
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
export async function readStateAtCapture(db: RedlineDb, incidentId: number, captureId: number): Promise<string | undefined> {
  const row = await statements(db).atCapture.get(captureId, incidentId);
  return row ? readStateText(db, incidentId, row.id) : undefined;
}

/** Every record an incident was logged with, by the capture that logged it (the last, if one logged two). */
export async function statesByCapture(db: RedlineDb, incidentId: number): Promise<Map<number, string>> {
  return recordsByCapture((await statements(db).all.all(incidentId)).map((r) => stored(db, r)));
}

/** An incident's logged rows, in order, replayed: each record by the capture that logged it (the last, if one logged two). */
export function recordsByCapture(rows: ReadonlyArray<{ captureId: number; state: PackedJson | null; patch: StoredPatch | null }>): Map<number, string> {
  const texts = replayStateRows(rows);
  return new Map(rows.map((r, i) => [r.captureId, texts[i] ?? ""]));
}
