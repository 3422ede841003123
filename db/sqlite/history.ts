import type { HistoryDialect } from "@/db/driver/dialect";

/** SQLite's side of HistoryDialect. */
export const sqliteHistory: HistoryDialect = {};
