import type { QueriesDialect } from "@/db/driver/dialect";

/** SQLite's side of QueriesDialect. */
export const sqliteQueries: QueriesDialect = {};
