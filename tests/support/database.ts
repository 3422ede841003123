import path from "node:path";
import { afterAll } from "vitest";
import { closeStore, openDatabase, openStore, type RedlineDb } from "@/db/client";
import { createPostgresDatabase, dropPostgresDatabase } from "@/tests/support/postgres-databases";
import { postgresAdminUrl, postgresTemplate } from "@/tests/support/postgres";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

/** The PostgreSQL databases this test file made, closed and dropped after its tests. */
const made: Array<{ url: string; db: RedlineDb }> = [];
/** The PostgreSQL databases freshLocation made, dropped (connections and all) after the file's tests. */
const madeLocations: string[] = [];

/**
 * A fresh database with every migration applied, on the database the suite runs on
 * (REDLINE_TEST_DATABASE): in-memory SQLite, or a copy of the run's migrated PostgreSQL template.
 */
export async function freshDatabase(): Promise<RedlineDb> {
  if (testDatabaseDialect === "sqlite") return openDatabase(":memory:");
  const url = await createPostgresDatabase(postgresAdminUrl(), "redline_test", postgresTemplate());
  const db = await openStore(url, { migrate: false });
  made.push({ url, db });
  return db;
}

/** Where the next freshLocation in this file's SQLite folder goes. */
let locations = 0;

/**
 * Where a command or process the test starts keeps its archive (`--db`, REDLINE_DB), on the database
 * the suite runs on: a new SQLite file in `dir` (the command makes it), or a fresh database of the
 * run's PostgreSQL cluster, dropped after the file's tests. `migrated: false` gives an empty
 * PostgreSQL database rather than a copy of the migrated template, for tests of the first start.
 */
export async function freshLocation(dir: string, options: { name?: string; migrated?: boolean } = {}): Promise<string> {
  const name = options.name ?? "archive";
  if (testDatabaseDialect === "sqlite") return path.join(dir, `${name}-${++locations}.db`);
  const url = await createPostgresDatabase(postgresAdminUrl(), `redline_${name}`, options.migrated === false ? undefined : postgresTemplate());
  madeLocations.push(url);
  return url;
}

export async function countRows(db: RedlineDb, table: string): Promise<number> {
  const row = await db.connection.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${table}`).get();
  return row?.n ?? 0;
}

/** A test's SQL that each database spells its own way. */
export interface BothSql {
  sqlite: string;
  postgres: string;
}

/** The test's SQL as the database `db` spells it. */
export function sqlOf(db: RedlineDb, sql: string | BothSql): string {
  return typeof sql === "string" ? sql : sql[db.connection.dialect.name as keyof BothSql];
}

/** A test's own read, on whichever database the suite runs on (`?` parameters, both dialects). */
export function queryRows<R>(db: RedlineDb, sql: string | BothSql, ...params: unknown[]): Promise<R[]> {
  return db.connection.prepare<unknown[], R>(sqlOf(db, sql)).all(...params);
}

export function queryRow<R>(db: RedlineDb, sql: string | BothSql, ...params: unknown[]): Promise<R | undefined> {
  return db.connection.prepare<unknown[], R>(sqlOf(db, sql)).get(...params);
}

/** A test's own write (setting up a state the code under test must meet), on either database. */
export async function runSql(db: RedlineDb, sql: string | BothSql, ...params: unknown[]): Promise<number> {
  return (await db.connection.prepare<unknown[]>(sqlOf(db, sql)).run(...params)).changes;
}

afterAll(async () => {
  const databases = made.splice(0);
  await Promise.all(databases.map(({ db }) => closeStore(db).catch(() => undefined)));
  for (const { url } of databases) await dropPostgresDatabase(postgresAdminUrl(), url);
  for (const url of madeLocations.splice(0)) await dropPostgresDatabase(postgresAdminUrl(), url);
});
