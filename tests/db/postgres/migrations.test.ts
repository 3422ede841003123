import fs from "node:fs";
import path from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import * as sqliteSchema from "@/db/schema";
import { describePostgres, runPostgresCluster } from "@/tests/support/postgres";
import { bothDialects, type MigratedPostgres, migratedPostgres, POSTGRES_MIGRATIONS_DIR } from "@/tests/support/postgres-schema";

/** What SQLite has that PostgreSQL does another way (docs/decisions/0041), and why. */
const SQLITE_ONLY = {
  // The compressed content of the external-content FTS5 index; incident_search holds the text itself.
  tables: ["incident_search_text"],
  views: ["incident_search_source"],
  // FTS5 upkeep (a generated tsvector column keeps itself), and deletions a foreign key cascades.
  triggers: ["incident_search_text_insert", "incident_search_text_update", "incident_search_text_delete", "incidents_search_delete", "versions_search_delete"],
};

/** What PostgreSQL has that SQLite keeps implicitly: the search tables' keys and vectors, primary key indexes. */
const POSTGRES_ONLY = {
  columns: ["incident_search.incident_id", "incident_search.document", "version_search.version_id", "version_search.document"],
  indexes: ["incident_search_document", "version_search_document"],
  primaryKeyIndex: /(_pkey|_pk)$/,
};

/** Columns holding JSON text (jsonb in PostgreSQL), and JSON text or its packed binary form (bytea). */
const JSON_COLUMNS = ["vendors.derived_with", "captures.warnings", "incident_versions.kinds", "archive_changes.kinds", "subscriptions.filter", "outbox_versions.facts", "notification_messages.period", "quiet_degradations.components"];
const PACKED_COLUMNS = ["incident_versions.snapshot", "incident_versions.patch", "incident_states.state", "incident_states.patch"];

interface Layout {
  tables: string[];
  columns: Map<string, string>;
  indexes: string[];
  triggers: string[];
  views: string[];
}

function sqliteLayout(db: RedlineDb): Layout {
  const sqlite = db.$client;
  const tables = sqlite
    .prepare<[], { name: string }>("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual') AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'")
    .all()
    .map((t) => t.name);
  const columns = new Map<string, string>();
  for (const table of tables) {
    for (const c of sqlite.prepare<[string], { name: string; type: string }>("SELECT name, type FROM pragma_table_info(?)").all(table)) columns.set(`${table}.${c.name}`, c.type.toLowerCase());
  }
  const named = (type: string) =>
    sqlite
      .prepare<[string], { name: string }>("SELECT name FROM sqlite_master WHERE type = ? AND name NOT LIKE 'sqlite_autoindex_%'")
      .all(type)
      .map((r) => r.name);
  return { tables, columns, indexes: named("index"), triggers: named("trigger"), views: named("view") };
}

async function postgresLayout(pg: MigratedPostgres): Promise<Layout & { types: Map<string, { type: string; collation: string | null }> }> {
  const rows = async <T>(query: string) => (await pg.pool.query<T & Record<string, unknown>>(query)).rows;
  const tables = (await rows<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'")).map((r) => r.name);
  const columnRows = await rows<{ table: string; name: string; type: string; collation: string | null }>(
    "SELECT table_name AS table, column_name AS name, data_type AS type, collation_name AS collation FROM information_schema.columns WHERE table_schema = 'public'",
  );
  const types = new Map(columnRows.map((c) => [`${c.table}.${c.name}`, { type: c.type, collation: c.collation }]));
  return {
    tables,
    columns: new Map(columnRows.map((c) => [`${c.table}.${c.name}`, c.type])),
    types,
    indexes: (await rows<{ name: string }>("SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'")).map((r) => r.name),
    triggers: (await rows<{ name: string }>("SELECT DISTINCT trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = 'public'")).map((r) => r.name),
    views: (await rows<{ name: string }>("SELECT table_name AS name FROM information_schema.views WHERE table_schema = 'public'")).map((r) => r.name),
  };
}

const sorted = (names: Iterable<string>) => [...names].sort();

describePostgres("PostgreSQL migrations", () => {
  let cluster: ReturnType<typeof runPostgresCluster>;
  let pg: MigratedPostgres;
  let sqlite: RedlineDb;

  beforeAll(async () => {
    cluster = runPostgresCluster();
    pg = await migratedPostgres(await cluster.createDatabase("migrations"));
    sqlite = openDatabase(":memory:");
  });

  afterAll(async () => {
    closeDatabase(sqlite);
    await pg.close();
  });

  it("apply to a fresh database, and a second time as a no-op", async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(POSTGRES_MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    const url = await cluster.createDatabase("twice");
    await (await migratedPostgres(url)).close();
    const again = await migratedPostgres(url);
    try {
      const applied = await again.pool.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
      expect(Number(applied.rows[0]?.n)).toBe(journal.entries.length);
      const once = await postgresLayout(pg);
      const twice = await postgresLayout(again);
      expect(sorted(twice.columns.keys())).toEqual(sorted(once.columns.keys()));
      expect(sorted(twice.indexes)).toEqual(sorted(once.indexes));
      expect(sorted(twice.triggers)).toEqual(sorted(once.triggers));
      const revision = await again.pool.query<{ id: string; revision: string }>("SELECT id, revision FROM archive_revision");
      expect(revision.rows).toEqual([{ id: "1", revision: "0" }]);
    } finally {
      await again.close();
    }
  });

  it("refuse a database whose LC_CTYPE is C, where text search would fold case and split words for ASCII alone", async () => {
    const url = new URL(cluster.adminUrl);
    url.pathname = "/ascii_ctype";
    await pg.pool.query("CREATE DATABASE ascii_ctype ENCODING 'UTF8' LC_CTYPE 'C' LC_COLLATE 'C' TEMPLATE template0");
    try {
      await expect(migratedPostgres(url.toString())).rejects.toMatchObject({ cause: { message: expect.stringMatching(/^store: .* with LC_CTYPE C,/) as unknown } });
    } finally {
      await cluster.dropDatabase(url.toString());
    }
  });

  it("make every SQLite table, column, index and trigger under the same name, but what SQLite's FTS5 alone needs", async () => {
    const lite = sqliteLayout(sqlite);
    const post = await postgresLayout(pg);
    const missing = (names: string[], present: Iterable<string>, except: string[] = []) => {
      const found = new Set(present);
      return names.filter((n) => !except.includes(n) && !found.has(n));
    };
    expect(missing(lite.tables, post.tables, SQLITE_ONLY.tables)).toEqual([]);
    const onlySqliteColumn = (c: string) => SQLITE_ONLY.tables.some((t) => c.startsWith(`${t}.`));
    expect(missing([...lite.columns.keys()].filter((c) => !onlySqliteColumn(c)), post.columns.keys())).toEqual([]);
    expect(missing(lite.indexes, post.indexes)).toEqual([]);
    expect(missing(lite.triggers, post.triggers, SQLITE_ONLY.triggers)).toEqual([]);
    expect(missing(lite.views, post.views, SQLITE_ONLY.views)).toEqual([]);
    // Every exception still names something SQLite has: one that outlives its reason is dropped.
    expect(missing([...SQLITE_ONLY.tables, ...SQLITE_ONLY.views, ...SQLITE_ONLY.triggers], [...lite.tables, ...lite.views, ...lite.triggers])).toEqual([]);
  });

  it("make nothing SQLite lacks but the search tables' keys and vectors and the primary keys' indexes", async () => {
    const lite = sqliteLayout(sqlite);
    const post = await postgresLayout(pg);
    expect(post.tables.filter((t) => !lite.tables.includes(t))).toEqual([]);
    expect(sorted([...post.columns.keys()].filter((c) => !lite.columns.has(c)))).toEqual(sorted(POSTGRES_ONLY.columns));
    expect(sorted(post.indexes.filter((i) => !lite.indexes.includes(i) && !POSTGRES_ONLY.primaryKeyIndex.test(i)))).toEqual(sorted(POSTGRES_ONLY.indexes));
    expect(post.triggers.filter((t) => !lite.triggers.includes(t))).toEqual([]);
    expect(post.views).toEqual([]);
  });

  it("store INTEGER as bigint (boolean columns as boolean), TEXT as text in the C collation, JSON as jsonb, BLOB and packed JSON as bytea", async () => {
    const post = await postgresLayout(pg);
    const booleans = new Set<string>();
    for (const table of Object.values(sqliteSchema)) {
      if (!is(table, SQLiteTable)) continue;
      const config = getTableConfig(table);
      for (const column of config.columns) if (column.columnType === "SQLiteBoolean") booleans.add(`${config.name}.${column.name}`);
    }
    expect(booleans).toEqual(new Set(["vendors.enabled", "incident_sources.listed", "component_states.is_group", "component_states.inferred"]));
    const expected = (column: string, sqliteType: string) => {
      if (JSON_COLUMNS.includes(column)) return { type: "jsonb", collation: null };
      if (PACKED_COLUMNS.includes(column) || sqliteType === "blob") return { type: "bytea", collation: null };
      if (booleans.has(column)) return { type: "boolean", collation: null };
      if (sqliteType === "integer") return { type: "bigint", collation: null };
      return { type: "text", collation: "C" };
    };
    const lite = sqliteLayout(sqlite);
    const mismatched = [...lite.columns]
      .filter(([column]) => post.types.has(column))
      .map(([column, type]) => ({ column, want: expected(column, type), got: post.types.get(column) }))
      .filter((c) => JSON.stringify(c.want) !== JSON.stringify(c.got));
    expect(mismatched).toEqual([]);
    expect([...JSON_COLUMNS, ...PACKED_COLUMNS].filter((c) => !lite.columns.has(c))).toEqual([]);
  });

  it("compare and sort text as SQLite does, and redline_nocase() folds case as SQLite's NOCASE does", async () => {
    const names = ["acme", "Acme", "ACME", "acme-cloud", "acme cloud", "acmé", "Acmé", "ACMÉ", "Ünicode", "ünicode", "zeta", "Zeta", "_under", "10x", "9x"];
    const lite = openDatabase(":memory:");
    const db = await migratedPostgres(await cluster.createDatabase("collation"));
    try {
      const run = bothDialects(lite, db.pool);
      for (const [i, name] of names.entries()) await run("INSERT INTO vendors (slug, name, platform, created_at) VALUES (?, ?, 'statuspage', '2026-01-01T00:00:00.000Z')", [`v${i}`, name]);
      const sqliteNames = (query: string, params: unknown[] = []) => lite.$client.prepare<unknown[], { name: string }>(query).all(...params).map((r) => r.name);
      const postgresNames = async (query: string, params: unknown[] = []) => (await db.pool.query<{ name: string }>(query, params)).rows.map((r) => r.name);
      expect(await postgresNames("SELECT name FROM vendors ORDER BY name, slug")).toEqual(sqliteNames("SELECT name FROM vendors ORDER BY name, slug"));
      expect(await postgresNames("SELECT name FROM vendors ORDER BY redline_nocase(name), slug")).toEqual(sqliteNames("SELECT name FROM vendors ORDER BY name COLLATE NOCASE, slug"));
      for (const probe of ["ACME", "acmé", "ÜNICODE", "Zeta"]) {
        expect(await postgresNames("SELECT name FROM vendors WHERE redline_nocase(name) = redline_nocase($1) ORDER BY slug", [probe])).toEqual(
          sqliteNames("SELECT name FROM vendors WHERE name = ? COLLATE NOCASE ORDER BY slug", [probe]),
        );
      }
    } finally {
      closeDatabase(lite);
      await db.close();
    }
  });
});
