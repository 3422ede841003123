/** A database of the layout before versions and record states were kept as patches, for the conversion's tests. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { MIGRATIONS_DIR, type RedlineDb } from "@/db/client";
import type { StoredPatch } from "@/db/json-deltas";
import type { PackedJson } from "@/db/packed-json";
import { registerSearchFunctions } from "@/db/search-text";
import { unpackVersionContent, type VersionContent } from "@/db/version-content";
import { replayStateRows } from "@/db/state-log";
import { readVersionState } from "@/db/version-states";

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

/** The columns a version kept of its own before migration 0019 packed them into its content. */
const CONTENT_COLUMNS: Record<string, keyof VersionContent> = {
  changes: "changes", summary: "summary", headline: "headline", title: "title", impact: "impact", incident_kind: "incidentKind",
};
const FIELD_FUNCTION = "redline_test_version_field";

/** The value to copy into `column` of an older layout's `table` from the source's row `src."table"`. */
export function sourceValue(table: string, column: string): string {
  const field = table === "incident_versions" ? CONTENT_COLUMNS[column] : undefined;
  return field === undefined ? `"${column}"` : `${FIELD_FUNCTION}("content", '${field}')`;
}

/**
 * Attach `source` as `src` to a file of an older layout, to copy its rows across: the tables of
 * that file to fill (not SQLite's, the migrations' or the search index's shadow tables).
 */
export function attachSource(old: Database.Database, source: RedlineDb): string[] {
  // Reading src.incident_search's text goes through the source's view of its compressed text.
  registerSearchFunctions(old);
  // An older layout's version columns are read out of the source's content (changes as plain JSON, as that layout kept them).
  old.function(FIELD_FUNCTION, { deterministic: true }, (content: unknown, field: unknown) => {
    const value = unpackVersionContent(content as Buffer)[field as keyof VersionContent];
    return field === "changes" ? JSON.stringify(value) : (value as string | null);
  });
  old.pragma("foreign_keys = OFF");
  old.exec(`ATTACH '${source.$client.name}' AS src`);
  return old
    .prepare<[], { name: string }>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'incident_search_%'")
    .all()
    .map((t) => t.name);
}

/** Copy an archive into a previous-layout file, every version and record state written out in full as that layout had them. */
export function writePreviousLayout(source: RedlineDb, file: string): void {
  const old = new Database(file);
  const tables = attachSource(old, source);
  old.transaction(() => {
    for (const table of tables) {
      const names = old.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().map((c) => c.name);
      // Filled in full below; the previous layout has them NOT NULL.
      const values = names.map((n) => (n === "snapshot" || n === "state" ? `coalesce("${n}", '{}')` : sourceValue(table, n))).join(", ");
      old.exec(`DELETE FROM main."${table}"; INSERT INTO main."${table}" (rowid, ${names.map((n) => `"${n}"`).join(", ")}) SELECT rowid, ${values} FROM src."${table}"`);
    }
    const setSnapshot = old.prepare<[string, number]>("UPDATE main.incident_versions SET snapshot = ? WHERE id = ?");
    const versions = source.$client.prepare<[], { id: number; incidentId: number; seq: number }>("SELECT id, incident_id AS incidentId, seq FROM incident_versions");
    for (const v of versions.all()) setSnapshot.run(JSON.stringify(readVersionState(source, v.incidentId, v.seq)), v.id);
    const setState = old.prepare<[string, number]>("UPDATE main.incident_states SET state = ? WHERE id = ?");
    const states = source.$client.prepare<[number], { id: number; state: PackedJson | null; patch: StoredPatch | null }>("SELECT id, state, patch FROM incident_states WHERE incident_id = ? ORDER BY id");
    for (const { id } of source.$client.prepare<[], { id: number }>("SELECT id FROM incidents").all()) {
      const rows = states.all(id);
      replayStateRows(rows).forEach((text, i) => setState.run(text, rows[i]?.id ?? 0));
    }
  })();
  old.close();
}
