import { openDatabase, type RedlineDb } from "@/db/client";

/** A fresh in-memory database with every migration applied. */
export function freshDatabase(): RedlineDb {
  return openDatabase(":memory:");
}

export function countRows(db: RedlineDb, table: string): number {
  const row = db.$client.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
  return row.n;
}
