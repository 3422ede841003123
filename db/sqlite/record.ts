import type { RecordDialect } from "@/db/driver/dialect";

/** SQLite's side of RecordDialect. */
export const sqliteRecord: RecordDialect = {};
