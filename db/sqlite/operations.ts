import type { OperationsDialect } from "@/db/driver/dialect";

/** SQLite's side of OperationsDialect. */
export const sqliteOperations: OperationsDialect = {};
