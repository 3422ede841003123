/** A database of the layout before versions and record states were kept as patches, for the conversion's tests. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { MIGRATIONS_DIR, type RedlineDb } from "@/db/client";
import type { StoredPatch } from "@/db/history/json-deltas";
import type { PackedJson } from "@/db/history/packed-json";
import { registerSearchFunctions } from "@/db/search/search-text";
import { replayStateRows } from "@/db/history/state-log";
import { readVersionState } from "@/db/history/version-states";
import { CHANGE_KIND_CODES } from "@/lib/change-kinds";
import { olderLayoutOf, olderLayoutValue, registerOlderLayoutFunctions } from "@/tests/support/older-layout-columns";

/** The last migration of the layout that stored every version's snapshot and every record state in full. */
const LAST_FULL_LAYOUT = 12;

/** A database file with the schema as it was before versions were kept as patches. */
export function previousLayoutFile(dir: string): string {
  const migrations = path.join(dir, "migrations");
  fs.mkdirSync(path.join(migrations, "meta"), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: Array<{ idx: number; tag: string }> };
  journal.entries = journal.entries.filter((e) => e.idx <= LAST_FULL_LAYOUT);
  for (const e of journal.entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(migrations, `${e.tag}.sql`));
  fs.writeFileSync(path.join(migrations, "meta", "_journal.json"), JSON.stringify(journal));
  const file = path.join(dir, "previous.db");
  const sqlite = new Database(file);
  migrate(drizzle(sqlite), { migrationsFolder: migrations });
  sqlite.close();
  return file;
}

/** A database file migrated up to just before the migration tagged `<NNNN>_<name>`: the layout that migration converts. */
export function fileBeforeMigration(dir: string, name: string): string {
  const migrations = path.join(dir, `migrations-before-${name}`);
  fs.mkdirSync(path.join(migrations, "meta"), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: Array<{ idx: number; tag: string }> };
  const next = journal.entries.find((e) => e.tag.endsWith(`_${name}`));
  if (!next) throw new Error(`no migration ${name} in ${MIGRATIONS_DIR}`);
  journal.entries = journal.entries.filter((e) => e.idx < next.idx);
  for (const e of journal.entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(migrations, `${e.tag}.sql`));
  fs.writeFileSync(path.join(migrations, "meta", "_journal.json"), JSON.stringify(journal));
  const file = path.join(dir, `before-${name}.db`);
  const sqlite = new Database(file);
  registerSearchFunctions(sqlite);
  migrate(drizzle(sqlite), { migrationsFolder: migrations });
  sqlite.close();
  return file;
}

/**
 * Attach `source` as `src` to a file of an older layout, to copy its rows across: the tables of
 * that file to fill (not SQLite's, the migrations' or the search index's shadow tables).
 */
export function attachSource(old: Database.Database, source: RedlineDb): string[] {
  // Reading src.incident_search's text goes through the source's view of its compressed text.
  registerSearchFunctions(old);
  registerOlderLayoutFunctions(old);
  old.pragma("foreign_keys = OFF");
  old.exec(`ATTACH '${source.$client.name}' AS src`);
  return old
    .prepare<[], { name: string }>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'incident_search_%'")
    .all()
    .map((t) => t.name);
}

/** version_kinds as the layouts before migration 0019 kept it: the kind's name and the version's observation time as text. */
const NAMED_VERSION_KINDS = `(SELECT k.version_id, CASE k.kind ${CHANGE_KIND_CODES.map((name, code) => `WHEN ${code} THEN '${name}'`).join(" ")} END AS kind,
  k.vendor_id, v.observed_at FROM src.version_kinds k JOIN src.incident_versions v ON v.id = k.version_id)`;

/**
 * The statement that fills `main.<table>` of an older-layout file from the attached source, column
 * for column (`values` stands in for some), keeping row ids where the source's table has them.
 */
export function copyFromSource(old: Database.Database, table: string, values?: (name: string) => string): string {
  const layout = olderLayoutOf(old);
  const valueOf = values ?? ((n: string) => olderLayoutValue(table, n, layout));
  const names = old.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().map((c) => c.name);
  const list = names.map((n) => `"${n}"`).join(", ");
  const named = table === "version_kinds" && hasColumn(old, "main", table, "observed_at") && !hasColumn(old, "src", table, "observed_at");
  const from = named ? `${NAMED_VERSION_KINDS} AS t` : `src."${table}" t`;
  const withRowid = !/WITHOUT ROWID\s*$/i.test(old.prepare<[string], { sql: string }>("SELECT sql FROM src.sqlite_master WHERE name = ?").get(table)?.sql ?? "");
  const selected = names.map(valueOf).join(", ");
  return `DELETE FROM main."${table}"; INSERT INTO main."${table}" (${withRowid ? "rowid, " : ""}${list}) SELECT ${withRowid ? "t.rowid, " : ""}${selected} FROM ${from}${withRowid ? " ORDER BY t.rowid" : ""}`;
}

const hasColumn = (db: Database.Database, schema: string, table: string, column: string): boolean =>
  db.prepare<[string, string, string], { name: string }>("SELECT name FROM pragma_table_info(?, ?) WHERE name = ?").get(table, schema, column) !== undefined;

/** Copy every row of an archive into a file of an older layout whose tables differ only in how they are keyed. */
export function copyArchiveInto(file: string, source: RedlineDb): void {
  const old = new Database(file);
  const tables = attachSource(old, source);
  old.transaction(() => {
    for (const table of tables) old.exec(copyFromSource(old, table));
  })();
  old.exec("DETACH src");
  old.close();
}

/** Copy an archive into a previous-layout file, every version and record state written out in full as that layout had them. */
export async function writePreviousLayout(source: RedlineDb, file: string): Promise<void> {
  const versions = source.$client.prepare<[], { id: number; incidentId: number; seq: number }>("SELECT id, incident_id AS incidentId, seq FROM incident_versions");
  const snapshots: Array<{ v: { id: number }; state: unknown }> = [];
  for (const v of versions.all()) snapshots.push({ v, state: await readVersionState(source, v.incidentId, v.seq) });
  const old = new Database(file);
  const tables = attachSource(old, source);
  old.transaction(() => {
    // Snapshots and states are filled in full below; the previous layout has them NOT NULL.
    const layout = olderLayoutOf(old);
    for (const table of tables) old.exec(copyFromSource(old, table, (n) => (n === "snapshot" || n === "state" ? `coalesce(t."${n}", '{}')` : olderLayoutValue(table, n, layout))));
    const setSnapshot = old.prepare<[string, number]>("UPDATE main.incident_versions SET snapshot = ? WHERE id = ?");
    for (const { v, state } of snapshots) setSnapshot.run(JSON.stringify(state), v.id);
    const setState = old.prepare<[string, number]>("UPDATE main.incident_states SET state = ? WHERE id = ?");
    const states = source.$client.prepare<[number], { id: number; state: PackedJson | null; patch: StoredPatch | null }>("SELECT id, state, patch FROM incident_states WHERE incident_id = ? ORDER BY id");
    for (const { id } of source.$client.prepare<[], { id: number }>("SELECT id FROM incidents").all()) {
      const rows = states.all(id);
      replayStateRows(rows).forEach((text, i) => setState.run(text, rows[i]?.id ?? 0));
    }
  })();
  old.close();
}
