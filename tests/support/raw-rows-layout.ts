/** The raw layer as it was before bodies had integer ids: hex hashes in every row that points at a body. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { MIGRATIONS_DIR, type RedlineDb } from "@/db/client";
import { registerSearchFunctions } from "@/db/search-text";
import { attachSource, copyFromSource } from "@/tests/support/previous-layout";

const RAW_ROWS_TAG = /_raw_rows$/;

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

function journal(): Journal {
  return JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as Journal;
}

/** The statements of the raw-rows migration, found by name so that renumbering at a merge does not move it. */
export function rawRowsStatements(): string[] {
  const entry = journal().entries.find((e) => RAW_ROWS_TAG.test(e.tag));
  if (!entry) throw new Error("no raw_rows migration in the journal");
  return fs.readFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), "utf8").split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean);
}

/** A database file migrated up to just before the raw-rows migration. */
export function layoutBeforeRawRowsFile(dir: string, name = "before-raw-rows.db"): string {
  const migrations = path.join(dir, `migrations-${name}`);
  fs.mkdirSync(path.join(migrations, "meta"), { recursive: true });
  const j = journal();
  const at = j.entries.findIndex((e) => RAW_ROWS_TAG.test(e.tag));
  if (at < 0) throw new Error("no raw_rows migration in the journal");
  j.entries = j.entries.slice(0, at);
  for (const e of j.entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(migrations, `${e.tag}.sql`));
  fs.writeFileSync(path.join(migrations, "meta", "_journal.json"), JSON.stringify(j));
  const file = path.join(dir, name);
  const sqlite = new Database(file);
  sqlite.pragma("page_size = 1024");
  sqlite.pragma("journal_mode = WAL");
  registerSearchFunctions(sqlite);
  migrate(drizzle(sqlite), { migrationsFolder: migrations });
  sqlite.close();
  return file;
}

/** Copy an archive into a file of the layout before raw rows, writing bodies and captures as that layout had them. */
export function writeLayoutBeforeRawRows(source: RedlineDb, file: string): void {
  const old = new Database(file);
  // The search index fills itself from incident_search_text by trigger.
  const tables = attachSource(old, source).filter((t) => t !== "incident_search");
  old.transaction(() => {
    for (const table of tables) old.exec(copyFromSource(old, table));
  })();
  old.exec("DETACH src");
  old.close();
}
