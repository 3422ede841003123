import type { HistoryDialect } from "@/db/driver/database";
import { postgresPacked } from "@/db/schema/columns";

/** PostgreSQL's side of HistoryDialect. */
export const postgresHistory: HistoryDialect = {
  hexOf: (column) => `encode(${column}, 'hex')`,
  unhex: (param) => `decode(${param}, 'hex')`,
  packed: postgresPacked,
  // node-postgres reads a statement's rows whole.
  iterateRows: async (db, sql, params) => db.connection.prepare<unknown[], Record<string, unknown>>(sql).all(...params),
  // Its search entries are laid out otherwise than the scratch's SQLite table.
  scratchSearchTable: null,
  nullsFirst: (column) => `${column} NULLS FIRST`,
};
