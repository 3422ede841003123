import type { HistoryDialect } from "@/db/driver/dialect";

/** PostgreSQL's side of HistoryDialect. */
export const postgresHistory: HistoryDialect = {};
