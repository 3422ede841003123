import type { OperationsDialect } from "@/db/driver/dialect";

/** PostgreSQL's side of OperationsDialect. */
export const postgresOperations: OperationsDialect = {};
