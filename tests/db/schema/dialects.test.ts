import fs from "node:fs";
import path from "node:path";
import { getTableColumns, getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { encodeReverseDelta } from "@/db/history/json-deltas";
import { compressWithDictionary } from "@/db/history/json-dictionary";
import * as sqliteSchema from "@/db/schema";
import * as postgresSchema from "@/db/schema/postgres";

/** The snapshot drizzle-kit wrote with a folder's last migration: what the next `generate` diffs against. */
function lastSnapshot(folder: string): unknown {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: Array<{ idx: number }> };
  const last = journal.entries.at(-1)?.idx ?? 0;
  return JSON.parse(fs.readFileSync(path.join(folder, "meta", `${String(last).padStart(4, "0")}_snapshot.json`), "utf8"));
}

/** The statements `drizzle-kit generate` would write; a diff it would ask about (a rename?) is one too. */
async function pending(diff: () => Promise<string[]>): Promise<string[]> {
  try {
    return await diff();
  } catch (error) {
    return [`drizzle-kit would ask: ${(error as Error).message}`];
  }
}

const tablesOf = (schema: Record<string, unknown>, kind: typeof SQLiteTable | typeof PgTable) => Object.fromEntries(Object.entries(schema).filter(([, value]) => is(value, kind)));

describe("the schema in two dialects", () => {
  it("leaves drizzle-kit nothing to generate for SQLite: the tables are what its last migration made", async () => {
    const kit = await import("drizzle-kit/api");
    const current = await kit.generateSQLiteDrizzleJson(sqliteSchema);
    const statements = await pending(() => kit.generateSQLiteMigration(lastSnapshot("db/migrations") as typeof current, current));
    expect(statements).toEqual([]);
  });

  it("leaves drizzle-kit nothing to generate for PostgreSQL: the tables are what its last migration made", async () => {
    const kit = await import("drizzle-kit/api");
    const current = kit.generateDrizzleJson(postgresSchema);
    const statements = await pending(() => kit.generateMigration(lastSnapshot("db/migrations-postgres") as typeof current, current));
    expect(statements).toEqual([]);
  });

  it("builds a PostgreSQL table for every SQLite one, with the same columns, but the FTS5 index's compressed text", () => {
    const sqliteTables = tablesOf(sqliteSchema, SQLiteTable);
    const postgresTables = tablesOf(postgresSchema, PgTable);
    const { incidentSearchText: _sqliteOnly, ...shared } = sqliteTables;
    expect(Object.keys(postgresTables).sort()).toEqual(Object.keys(shared).sort());
    const columns = (t: SQLiteTable | PgTable) => Object.entries(getTableColumns(t)).map(([key, column]) => `${key}:${column.name}`);
    for (const [key, table] of Object.entries(shared)) {
      const postgres = postgresTables[key];
      if (!is(postgres, PgTable) || !is(table, SQLiteTable)) throw new Error(`${key} is not a table in both dialects`);
      expect(getTableName(postgres)).toBe(getTableName(table));
      expect(columns(postgres)).toEqual(columns(table));
    }
  });

  it("reads a packed value back from bytea as it was written: text as text, a dictionary frame or a delta as bytes", () => {
    const column = postgresSchema.incidentVersions.snapshot;
    const text = JSON.stringify({ title: "API errors", updates: [] });
    const frame = compressWithDictionary(Buffer.from(JSON.stringify({ title: "x".repeat(300) })));
    const delta = encodeReverseDelta(JSON.stringify({ a: 1, b: "y".repeat(300) }), JSON.stringify({ a: 2, b: "y".repeat(300) }));
    for (const value of [text, frame, delta]) {
      const stored = column.mapToDriverValue(value);
      expect(Buffer.isBuffer(stored)).toBe(true);
      expect(column.mapFromDriverValue(stored)).toEqual(value);
    }
  });

  it("gives a jsonb column's value back as JSON text, as SQLite's TEXT column holds it", () => {
    const column = postgresSchema.captures.warnings;
    expect(column.mapFromDriverValue([{ path: "incidents[0]", message: "no title" }])).toBe('[{"path":"incidents[0]","message":"no title"}]');
    expect(column.mapFromDriverValue('[{"path":"x"}]')).toBe('[{"path":"x"}]');
  });
});
