import type { Connection, OperationsDialect, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

function reserveSql(d: OperationsDialect): string {
  const [nowMs, intervalMs] = [d.typed("@nowMs", "bigint"), d.typed("@intervalMs", "bigint")];
  return `INSERT INTO host_slots (origin, next_start_ms) VALUES (@origin, ${nowMs} + ${intervalMs})
     ON CONFLICT (origin) DO UPDATE SET next_start_ms = ${d.greatest("host_slots.next_start_ms", nowMs)} + ${intervalMs}
     RETURNING next_start_ms - ${intervalMs} AS startMs`;
}

const statements = statementsFor((c: Connection) => ({
  reserve: c.prepare<{ origin: string; nowMs: number; intervalMs: number }, { startMs: number }>(reserveSql(c.dialect.operations)),
}));

/**
 * Reserve the next start for a request to `origin`, for every poller sharing the database: the
 * start is now or the previous reservation's start plus the interval, whichever is later, so two
 * requests to one host never start closer than `intervalMs` whichever processes make them. One
 * statement: atomic on SQLite (one writer) and on PostgreSQL (the upsert locks the row, and a
 * second waits and updates what the first wrote).
 */
export async function reserveHostSlot(db: RedlineDb, origin: string, intervalMs: number, nowMs: number): Promise<number> {
  const row = await statements(db).reserve.get({ origin, nowMs: Math.round(nowMs), intervalMs: Math.round(intervalMs) });
  return row?.startMs ?? nowMs;
}
