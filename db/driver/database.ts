import type Database from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { Connection } from "@/db/driver/connection";
import type * as schema from "@/db/schema";

/**
 * An open archive. `connection` runs the data layer's statements on either database. The rest is
 * Drizzle over SQLite, kept while the data layer moves onto `connection`: on PostgreSQL `$client`
 * throws, saying the code reached is SQLite-only (docs/decisions/0045-one-data-layer-two-databases.md).
 */
export type RedlineDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database; readonly connection: Connection };
/** The database or a transaction on it: what query and write functions take. */
export type RedlineExecutor = BaseSQLiteDatabase<"sync", Database.RunResult, typeof schema>;
