/** The raw layer as it was before bodies had integer ids: hex hashes in every row that points at a body. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS_DIR, type RedlineDb } from "@/db/client";
import { attachSource, copyFromSource, fileBeforeMigration } from "@/tests/support/previous-layout";

const RAW_ROWS_MIGRATION = "raw_rows";

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

function journal(): Journal {
  return JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as Journal;
}

/** The statements of the raw-rows migration, found by name so that renumbering at a merge does not move it. */
export function rawRowsStatements(): string[] {
  const entry = journal().entries.find((e) => e.tag.endsWith(`_${RAW_ROWS_MIGRATION}`));
  if (!entry) throw new Error("no raw_rows migration in the journal");
  return fs.readFileSync(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), "utf8").split("--> statement-breakpoint").map((s) => s.trim()).filter(Boolean);
}

/** A database file migrated up to just before the raw-rows migration. */
export function layoutBeforeRawRowsFile(dir: string): string {
  return fileBeforeMigration(dir, RAW_ROWS_MIGRATION);
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
