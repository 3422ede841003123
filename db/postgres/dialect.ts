import type { Dialect } from "@/db/driver/database";
import { postgresHistory } from "@/db/postgres/history";
import { postgresOperations } from "@/db/postgres/operations";
import { postgresQueries } from "@/db/postgres/queries";
import { postgresProcess } from "@/db/postgres/process";
import { postgresRecord } from "@/db/postgres/record";

/** What PostgreSQL spells its own way (db/driver/database.ts). */
export const postgresDialect: Dialect = {
  name: "postgres",
  title: "PostgreSQL",
  operations: postgresOperations,
  queries: postgresQueries,
  history: postgresHistory,
  record: postgresRecord,
  process: postgresProcess,
};
