import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { describeStoreFailure, firstLineOf, refusedStatement } from "@/db/driver/database-failure";
import type { MigrationSteps, RedlineDb } from "@/db/driver/database";
import { openPostgresDatabase, type PostgresPoolOptions } from "@/db/postgres/open";
import { isPostgresUrl, postgresProcess } from "@/db/postgres/process";
import { sqliteConnection } from "@/db/sqlite/connection";
import { applySqliteMigrations, sqliteProcess } from "@/db/sqlite/process";
import * as schema from "@/db/schema";
import { registerSearchFunctions } from "@/db/search/search-text";
import { registerVersionContentFunction } from "@/db/history/version-content";
import { fillVersionSearch } from "@/db/search/version-search-fill";

export type { RedlineDb, RedlineExecutor } from "@/db/driver/database";

/** Where the generated migrations live, from the project root (works under tsx, vitest and next). */
export const MIGRATIONS_DIR = sqliteProcess.migrationsFolder;
export const POSTGRES_MIGRATIONS_DIR = postgresProcess.migrationsFolder;

/** Long enough to ride out a concurrent writer's transaction, short enough to surface a stuck one. */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * A new database's page size. Every table and index holds a page at least, and a Redline database
 * has about 70: 1 KB pages make an empty archive 94 KB instead of 303 KB, for reads about 20%
 * slower at p50, well under a tenth of a millisecond (docs/decisions/0019-page-size.md).
 */
export const PAGE_SIZE = 1024;
/**
 * The page cache of a connection, at most (filled as pages are read). SQLite's default, 2 MB, holds
 * not even the inner pages of a large archive's big tables at this page size: a page reading a
 * component's runs then reads every level of each row's tree from the file again.
 */
const CACHE_KIB = 64 * 1024;

export class DatabaseError extends Error {
  readonly kind = "database";
}

/**
 * Open (creating if needed) a Redline database: WAL, a busy timeout, foreign keys on,
 * the search text functions registered, and all migrations applied unless `migrate: false`.
 */
export function openDatabase(file: string, options: { migrate?: boolean; readonly?: boolean; pool?: PostgresPoolOptions } = {}): RedlineDb {
  if (isDatabaseUrl(file)) {
    if (options.migrate !== false && !options.readonly) {
      throw new DatabaseError(`store: ${redact(file)} is opened with openStore, which applies its migrations (asynchronous on PostgreSQL)`);
    }
    return openPostgres(file, options.pool);
  }
  if (file !== ":memory:" && !options.readonly) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  let sqlite: Database.Database;
  try {
    sqlite = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  } catch (error) {
    throw new DatabaseError(describeStoreFailure(error, `while opening the database ${file}`), { cause: error });
  }
  // Only a new, empty file takes it; an existing database keeps the page size it was made with.
  if (!options.readonly) sqlite.pragma(`page_size = ${PAGE_SIZE}`);
  if (!options.readonly) sqlite.pragma("journal_mode = WAL");
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma(`cache_size = -${CACHE_KIB}`);
  // Before migrations: the search index's and the versions' migrations, and the index's view and triggers, call them.
  registerSearchFunctions(sqlite);
  registerVersionContentFunction(sqlite);
  const db = Object.assign(drizzle(sqlite, { schema }), { connection: sqliteConnection(sqlite) });
  if (options.migrate !== false && !options.readonly) migrateDatabase(db);
  return db;
}

/** Apply a SQLite file's migrations, synchronously: it runs inside opening the file. */
export function migrateDatabase(db: RedlineDb): void {
  applySqliteMigrations(db, MIGRATIONS_DIR, migrationSteps(MIGRATIONS_DIR));
}

/** Apply the archive's migrations, whichever database holds it. */
export async function migrateStore(db: RedlineDb): Promise<void> {
  const { applyMigrations, migrationsFolder } = db.connection.dialect.process;
  await applyMigrations(db, migrationsFolder, migrationSteps(migrationsFolder));
}

function migrationSteps(folder: string): MigrationSteps {
  return {
    fillVersionSearch,
    failed: (error) => new DatabaseError(describeStoreFailure(error, migrationPlace(folder, error)), { cause: error }),
  };
}

/** Where applying the migrations of `folder` failed: the file of the refused statement, or its first line. */
function migrationPlace(folder: string, error: unknown): string {
  const place = `while applying the migrations in ${path.relative(process.cwd(), folder) || folder}`;
  const statement = refusedStatement(error);
  if (statement === undefined) return place;
  const file = migrationFileOf(folder, statement);
  return file === undefined ? `${place}, at: ${firstLineOf(statement)}` : `${place} (${file})`;
}

/** The migration file of `folder` that holds `statement`, as drizzle's migrator splits them. */
function migrationFileOf(folder: string, statement: string): string | undefined {
  const wanted = statement.trim();
  try {
    const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string }> };
    return journal.entries
      .map((entry) => `${entry.tag}.sql`)
      .find((file) => fs.readFileSync(path.join(folder, file), "utf8").split("--> statement-breakpoint").some((part) => part.trim() === wanted));
  } catch {
    // Unreadable, the folder cannot say: the message names the statement instead.
    return undefined;
  }
}

/** Close without waiting: a SQLite file closes at once, a PostgreSQL pool ends its clients after. */
export function closeDatabase(db: RedlineDb): void {
  void db.connection.close();
}

/** Close and wait: a PostgreSQL pool ends its clients; SQLite closes at once. */
export async function closeStore(db: RedlineDb): Promise<void> {
  await db.connection.close();
}

/** `postgres://…` or `postgresql://…`: a PostgreSQL database rather than a SQLite file. */
export function isDatabaseUrl(location: string): boolean {
  return schemeOf(location) !== undefined;
}

/** A URL's scheme, lower case; undefined for a file name. */
function schemeOf(location: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1]?.toLowerCase();
}

/** The URL without its password, for messages. */
export function redact(location: string): string {
  return location.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@]*@/i, "$1:***@");
}

/**
 * Open an archive where it lives, a SQLite file or a PostgreSQL URL, with its migrations applied:
 * what every command and process starts with.
 */
export async function openStore(location: string, options: { migrate?: boolean; readonly?: boolean } = {}): Promise<RedlineDb> {
  if (!isDatabaseUrl(location)) return openDatabase(location, options);
  const db = openPostgres(location);
  if (options.migrate !== false && !options.readonly) {
    try {
      await migrateStore(db);
    } catch (error) {
      await closeStore(db);
      throw error;
    }
  }
  return db;
}

function openPostgres(url: string, options: PostgresPoolOptions = {}): RedlineDb {
  if (!isPostgresUrl(url)) {
    throw new DatabaseError(`store: ${schemeOf(url) ?? "?"}:// is not a database Redline keeps its archive in: give a SQLite file or a postgres:// URL`);
  }
  return openPostgresDatabase(url, options, (message) => new DatabaseError(message));
}
