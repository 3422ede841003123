import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";

const statements = preparedFor((sqlite: Database.Database) => ({
  reserve: sqlite.prepare<{ origin: string; nowMs: number; intervalMs: number }, { startMs: number }>(
    `INSERT INTO host_slots (origin, next_start_ms) VALUES (@origin, @nowMs + @intervalMs)
     ON CONFLICT (origin) DO UPDATE SET next_start_ms = max(host_slots.next_start_ms, @nowMs) + @intervalMs
     RETURNING next_start_ms - @intervalMs AS startMs`,
  ),
}));

/**
 * Reserve the next start for a request to `origin`, for every poller sharing the database: the
 * start is now or the previous reservation's start plus the interval, whichever is later, so two
 * requests to one host never start closer than `intervalMs` whichever processes make them. One
 * statement: atomic on SQLite (one writer) and on PostgreSQL (the row's lock).
 */
export async function reserveHostSlot(db: RedlineDb, origin: string, intervalMs: number, nowMs: number): Promise<number> {
  const row = statements(db).reserve.get({ origin, nowMs, intervalMs });
  return row?.startMs ?? nowMs;
}
