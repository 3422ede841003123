import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "@/db/schema";
import { registerSearchFunctions } from "@/db/search-text";
import { registerVersionContentFunction } from "@/db/version-content";
import { fillVersionSearch } from "@/db/version-search-fill";

export type RedlineDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database };
/** The database or a transaction on it: what query and write functions take. */
export type RedlineExecutor = BaseSQLiteDatabase<"sync", Database.RunResult, typeof schema>;

/** Where the generated migrations live, from the project root (works under tsx, vitest and next). */
export const MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations");

/** Long enough to ride out a concurrent writer's transaction, short enough to surface a stuck one. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * A new database's page size. Every table and index holds a page at least, and a Redline database
 * has about 70: 1 KB pages make an empty archive 94 KB instead of 303 KB, for reads about 20%
 * slower at p50, well under a tenth of a millisecond (docs/decisions/0019-page-size.md).
 */
export const PAGE_SIZE = 1024;

export class DatabaseError extends Error {
  readonly kind = "database";
}

/**
 * Open (creating if needed) a Redline database: WAL, a busy timeout, foreign keys on,
 * the search text functions registered, and all migrations applied unless `migrate: false`.
 */
export function openDatabase(file: string, options: { migrate?: boolean; readonly?: boolean } = {}): RedlineDb {
  // A URL is not a file name: opened as one, `postgres://…` would make a folder `postgres:` and a new SQLite archive in it.
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(file)?.[1];
  if (scheme) {
    throw new DatabaseError(
      `store: ${scheme}:// is a database URL, not a file: this Redline keeps its archive in SQLite, in a file (PostgreSQL is being added: README, "Several processes of one role")`,
    );
  }
  if (file !== ":memory:" && !options.readonly) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new DatabaseError(`store: unable to open database ${file}: ${(error as Error).message}`, { cause: error });
  }
  // Only a new, empty file takes it; an existing database keeps the page size it was made with.
  if (!options.readonly) sqlite.pragma(`page_size = ${PAGE_SIZE}`);
  if (!options.readonly) sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  // Before migrations: the search index's and the versions' migrations, and the index's view and triggers, call them.
  registerSearchFunctions(sqlite);
  registerVersionContentFunction(sqlite);
  const db = drizzle(sqlite, { schema });
  if (options.migrate !== false && !options.readonly) migrateDatabase(db);
  return db;
}

export function migrateDatabase(db: RedlineDb): void {
  try {
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    fillVersionSearch(db);
  } catch (error) {
    throw new DatabaseError(`store: unable to apply migrations from ${MIGRATIONS_DIR}: ${(error as Error).message}`, { cause: error });
  }
}

export function closeDatabase(db: RedlineDb): void {
  db.$client.close();
}
