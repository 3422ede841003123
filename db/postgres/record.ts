import type { RecordDialect } from "@/db/driver/dialect";

/** PostgreSQL's side of RecordDialect. */
export const postgresRecord: RecordDialect = {};
