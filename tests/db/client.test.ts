import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { closeDatabase, DatabaseError, migrateDatabase, openDatabase, PAGE_SIZE } from "@/db/client";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-db-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

// openDatabase opens a SQLite file (WAL, page size, pragmas); openStore on a URL is tested in tests/db/postgres.
describe("openDatabase (SQLite)", () => {
  it("creates the file with WAL, a busy timeout, foreign keys on and every migration applied", () => {
    const file = path.join(dir, "nested", "redline.db");
    const db = openDatabase(file);
    try {
      expect(db.$client.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
      expect(db.$client.pragma("busy_timeout", { simple: true })).toBeGreaterThanOrEqual(1000);
      const tables = (db.$client.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((t) => t.name);
      expect(tables).toEqual(expect.arrayContaining(["vendors", "captures", "capture_bodies", "incidents", "incident_versions", "version_kinds"]));
    } finally {
      closeDatabase(db);
    }
    expect(fs.existsSync(file)).toBe(true);
  });

  it("never takes a database URL for a file name: no folder named after its scheme, and an unknown scheme is refused", () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(() => openDatabase("postgres://redline:secret@db.internal:5432/redline")).toThrow(/^store: postgres:\/\/redline:\*\*\*@db.internal:5432\/redline is opened with openStore/);
      expect(() => openDatabase("mysql://db/redline", { migrate: false })).toThrow(/^store: mysql:\/\/ is not a database Redline keeps its archive in/);
      expect(fs.existsSync(path.join(dir, "postgres:"))).toBe(false);
      expect(fs.existsSync(path.join(dir, "mysql:"))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });

  it("makes a new database with small pages and leaves an existing one's page size alone", () => {
    const fresh = openDatabase(path.join(dir, "pages-new.db"));
    const freshSize = fresh.$client.pragma("page_size", { simple: true });
    closeDatabase(fresh);
    expect(freshSize).toBe(PAGE_SIZE);

    const file = path.join(dir, "pages-old.db");
    const made = new Database(file);
    made.pragma("page_size = 4096");
    made.exec("CREATE TABLE kept (v TEXT); INSERT INTO kept VALUES ('still here')");
    made.close();
    const db = openDatabase(file);
    try {
      expect(db.$client.pragma("page_size", { simple: true })).toBe(4096);
      expect(db.$client.prepare("SELECT v FROM kept").get()).toEqual({ v: "still here" });
    } finally {
      closeDatabase(db);
    }
  });

  it("applies migrations once: reopening an existing database changes nothing", () => {
    const file = path.join(dir, "twice.db");
    closeDatabase(openDatabase(file));
    const db = openDatabase(file);
    const applied = db.$client.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    closeDatabase(db);
    expect(applied.n).toBe(fs.readdirSync(path.join(process.cwd(), "db", "migrations")).filter((f) => f.endsWith(".sql")).length);
  });

  it("says first what SQLite refused in a migration, then the migration's file, keeping SQLite's error as the cause", () => {
    const db = openDatabase(":memory:", { migrate: false });
    try {
      db.$client.exec("CREATE TABLE capture_bodies (hash TEXT)");
      const failure = thrownBy(() => migrateDatabase(db));
      expect(failure).toBeInstanceOf(DatabaseError);
      expect((failure as Error).message.split("\n")).toEqual(["store: table `capture_bodies` already exists", "  while applying the migrations in db/migrations (0000_init.sql)"]);
      const causes: unknown[] = [];
      for (let e: unknown = (failure as Error).cause; e instanceof Error; e = e.cause) causes.push(e);
      expect(causes.at(-1)).toMatchObject({ code: "SQLITE_ERROR", message: "table `capture_bodies` already exists" });
    } finally {
      closeDatabase(db);
    }
  });

  it("says first why a file cannot be opened, then which", () => {
    const file = path.join(dir, "no-such-folder", "redline.db");
    const failure = thrownBy(() => openDatabase(file, { readonly: true }));
    expect((failure as Error).message.split("\n")).toEqual(["store: Cannot open database because the directory does not exist", `  while opening the database ${file}`]);
  });

  it("uses REDLINE_DB when no --db is given", () => {
    const file = path.join(dir, "from-env.db");
    const result = spawnSync(process.execPath, [REDLINE_BUNDLE, "migrate"], {
      cwd: process.cwd(),
      encoding: "utf8",
      env: { ...process.env, REDLINE_DB: file },
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`migrated ${file}`);
    expect(fs.existsSync(file)).toBe(true);
  });
});
