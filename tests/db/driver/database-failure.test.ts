import Database from "better-sqlite3";
import { DrizzleQueryError, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { databaseReason, describeStoreFailure, firstLineOf, refusedStatement } from "@/db/driver/database-failure";

/** What SQLite itself throws, and what Drizzle throws around it, for one refused statement. */
function sqliteRefusal(): { own: unknown; wrapped: unknown } {
  const sqlite = new Database(":memory:");
  try {
    sqlite.exec("CREATE TABLE vendors (slug TEXT NOT NULL)");
    const caught = (work: () => unknown) => {
      try {
        work();
      } catch (error) {
        return error;
      }
      throw new Error("the statement was not refused");
    };
    return {
      own: caught(() => sqlite.prepare("INSERT INTO vendors (slug) VALUES (NULL)").run()),
      wrapped: caught(() => drizzle(sqlite).run(sql.raw("INSERT INTO vendors (slug)\n  VALUES (NULL)"))),
    };
  } finally {
    sqlite.close();
  }
}

/** node-postgres' error as its protocol parser fills it from the server's ErrorResponse. */
function postgresError(message: string, fields: { code: string; detail?: string; hint?: string; position?: string }): pg.DatabaseError {
  return Object.assign(new pg.DatabaseError(message, 0, "error"), { severity: "ERROR", ...fields });
}

const RAISED = "store: the database is UTF8 with LC_CTYPE C, its text search would miss words SQLite's finds: create it UTF8 with a UTF-8 LC_CTYPE";

describe("databaseReason", () => {
  it("gives SQLite's own message, thrown by better-sqlite3 or wrapped by Drizzle with the statement", () => {
    const { own, wrapped } = sqliteRefusal();
    expect(databaseReason(own)).toBe("NOT NULL constraint failed: vendors.slug");
    expect((wrapped as Error).message).toMatch(/^Failed to run the query 'INSERT INTO vendors/);
    expect(databaseReason(wrapped)).toBe("NOT NULL constraint failed: vendors.slug");
  });

  it("gives PostgreSQL's message with its detail and hint, on one line", () => {
    const refused = postgresError('duplicate key value violates unique constraint "vendors_slug_unique"', { code: "23505", detail: "Key (slug)=(acme) already exists." });
    expect(databaseReason(refused)).toBe('duplicate key value violates unique constraint "vendors_slug_unique" (Key (slug)=(acme) already exists.)');
    const deadlock = postgresError("deadlock detected", { code: "40P01", detail: "Process 1 waits for ShareLock.\nProcess 2 waits for ShareLock.", hint: "See server log for query details." });
    expect(databaseReason(deadlock)).toBe("deadlock detected (Process 1 waits for ShareLock. Process 2 waits for ShareLock. See server log for query details.)");
    expect(databaseReason(postgresError('syntax error at or near "SELEC"', { code: "42601", position: "1" }))).toBe('syntax error at or near "SELEC"');
  });

  it("finds the database's answer under Drizzle's wrapper and an error of Redline's around it", () => {
    const refused = postgresError('relation "vendors" already exists', { code: "42P07" });
    const wrapped = new DrizzleQueryError('CREATE TABLE "vendors" (\n  "id" serial\n)', [], refused);
    const outer = new Error("store: unable to add vendor acme", { cause: wrapped });
    expect(databaseReason(outer)).toBe('relation "vendors" already exists');
  });

  it("gives the innermost message when no database answered, never Drizzle's statement", () => {
    const lost = new DrizzleQueryError("SELECT 1", [], new Error("Connection terminated unexpectedly"));
    expect(databaseReason(lost)).toBe("Connection terminated unexpectedly");
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    expect(databaseReason(new AggregateError([refused, new Error("connect ECONNREFUSED ::1:5432")]))).toBe("connect ECONNREFUSED 127.0.0.1:5432; connect ECONNREFUSED ::1:5432");
    expect(databaseReason("a thrown string")).toBe("a thrown string");
  });

  it("stops at a cause that points back at an error of its chain", () => {
    const a = new Error("outer");
    const b = new Error("inner", { cause: a });
    a.cause = b;
    expect(databaseReason(a)).toBe("inner");
  });
});

describe("refusedStatement", () => {
  it("names the statement Drizzle wrapped, and nothing when no statement was named", () => {
    const { own, wrapped } = sqliteRefusal();
    expect(refusedStatement(wrapped)).toBe("INSERT INTO vendors (slug)\n  VALUES (NULL)");
    expect(refusedStatement(new Error("store: unable to migrate", { cause: wrapped }))).toBe("INSERT INTO vendors (slug)\n  VALUES (NULL)");
    expect(refusedStatement(own)).toBeUndefined();
  });
});

describe("firstLineOf", () => {
  it("gives a statement's first line with something on it, trimmed", () => {
    expect(firstLineOf("\n   \n  -- Full-text search in PostgreSQL's own terms\nDO $$ BEGIN END $$;")).toBe("-- Full-text search in PostgreSQL's own terms");
  });
});

describe("describeStoreFailure", () => {
  it("puts the database's reason on the first line after store:, and where on indented lines after it", () => {
    const wrapped = new DrizzleQueryError("-- Full-text search in PostgreSQL's own terms\nDO $$ … $$", [], postgresError('extension "unaccent" is not available', { code: "0A000", hint: "The extension must first be installed on the system where PostgreSQL is running." }));
    expect(describeStoreFailure(wrapped, "while applying the migrations in db/migrations-postgres (0001_search.sql)").split("\n")).toEqual([
      'store: extension "unaccent" is not available (The extension must first be installed on the system where PostgreSQL is running.)',
      "  while applying the migrations in db/migrations-postgres (0001_search.sql)",
    ]);
  });

  it("does not double store: when the reason is one Redline raised in SQL", () => {
    const raised = new DrizzleQueryError("DO $$ … $$", [], postgresError(RAISED, { code: "P0001" }));
    expect(describeStoreFailure(raised, "while applying the migrations in db/migrations-postgres (0001_search.sql)").split("\n")[0]).toBe(RAISED);
  });
});
