import type { HistoryDialect } from "@/db/driver/database";
import { sqlitePacked } from "@/db/schema/columns";

/** SQLite's side of HistoryDialect. */
export const sqliteHistory: HistoryDialect = {
  hexOf: (column) => `lower(hex(${column}))`,
  unhex: (param) => `unhex(${param})`,
  packed: sqlitePacked,
  // better-sqlite3 steps through the rows as they are read.
  iterateRows: async (db, sql, params) => db.$client.prepare(sql).iterate(...params) as IterableIterator<Record<string, unknown>>,
  scratchSearchTable: "incident_search_text",
  // SQLite sorts null first already.
  nullsFirst: (column) => column,
};
