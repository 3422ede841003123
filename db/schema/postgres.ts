import type { Column } from "drizzle-orm";
import type { PgColumn, PgTableWithColumns } from "drizzle-orm/pg-core";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { type ColumnHelpers, postgresColumns } from "@/db/schema/columns";
import { defineTables } from "@/db/schema/tables";

/**
 * A PostgreSQL column typed as its SQLite counterpart reads and writes: the helpers map each kind
 * to the same JS values in both dialects (db/schema/columns.ts), so the row types are the same.
 */
type PgColumnOf<C extends Column> = PgColumn<{
  name: C["_"]["name"];
  tableName: C["_"]["tableName"];
  dataType: C["_"]["dataType"];
  columnType: C["_"]["columnType"];
  data: C["_"]["data"];
  driverParam: C["_"]["driverParam"];
  notNull: C["_"]["notNull"];
  hasDefault: C["_"]["hasDefault"];
  isPrimaryKey: C["_"]["isPrimaryKey"];
  isAutoincrement: C["_"]["isAutoincrement"];
  hasRuntimeDefault: C["_"]["hasRuntimeDefault"];
  enumValues: C["_"]["enumValues"];
  baseColumn: C["_"]["baseColumn"];
  identity: C["_"]["identity"];
  generated: C["_"]["generated"];
}>;

export type PgTableOf<T extends SQLiteTable> = PgTableWithColumns<{
  name: T["_"]["name"];
  schema: undefined;
  columns: { [K in keyof T["_"]["columns"]]: PgColumnOf<T["_"]["columns"][K]> };
  dialect: "pg";
}>;

type Tables = ReturnType<typeof defineTables>;
type PostgresTables = { [K in keyof Tables]: PgTableOf<Tables[K]> };

/**
 * The PostgreSQL tables (what drizzle.postgres.config.ts generates db/migrations-postgres from).
 * The description is typed with SQLite's builders; PostgreSQL's stand in for them at runtime, and
 * the tables they build are typed here: the one place the two are told apart for the compiler.
 */
export const {
  vendors,
  sources,
  pollState,
  captureBodies,
  captures,
  incidents,
  incidentComponents,
  incidentVersions,
  incidentSources,
  incidentStates,
  components,
  componentStates,
  quietDegradations,
  derivationJobs,
  versionKinds,
  archiveRevision,
  archiveChanges,
  hookDeliveries,
  pushPolls,
  hostSlots,
  throttleTelemetry,
  supervisorEvents,
  operatorSessions,
  watchlists,
  watchlistMembers,
  subscriptions,
  outboxVersions,
  notifications,
  notificationMessages,
  deliveryAttempts,
} = defineTables(postgresColumns as unknown as ColumnHelpers) as unknown as PostgresTables;
