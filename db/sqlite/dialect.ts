import type { Dialect } from "@/db/driver/database";
import { sqliteHistory } from "@/db/sqlite/history";
import { sqliteOperations } from "@/db/sqlite/operations";
import { sqliteQueries } from "@/db/sqlite/queries";
import { sqliteProcess } from "@/db/sqlite/process";
import { sqliteRecord } from "@/db/sqlite/record";

/** What SQLite spells its own way (db/driver/database.ts). */
export const sqliteDialect: Dialect = {
  name: "sqlite",
  title: "SQLite",
  operations: sqliteOperations,
  queries: sqliteQueries,
  history: sqliteHistory,
  record: sqliteRecord,
  process: sqliteProcess,
};
