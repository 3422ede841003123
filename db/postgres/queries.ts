import type { QueriesDialect } from "@/db/driver/dialect";

/** PostgreSQL's side of QueriesDialect. */
export const postgresQueries: QueriesDialect = {};
