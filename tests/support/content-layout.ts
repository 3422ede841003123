/** Versions as they were before migration 0019 packed their changes and text into one content column. */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { MIGRATIONS_DIR, type RedlineDb } from "@/db/client";
import { packJson } from "@/db/packed-json";
import { listChanges } from "@/db/queries/changes";
import { getIncidentRecord, getVersionDetail } from "@/db/queries/incident-page";
import { registerSearchFunctions } from "@/db/search-text";
import { attachSource, sourceValue } from "@/tests/support/previous-layout";

const VERSION_CONTENT_MIGRATION = "version_content";

/**
 * A copy of `source` in the layout before the version content migration: every table's rows, each
 * version's changes, summary, headline, title, impact and kind in columns of their own, changes
 * packed as that write path packed them (deflated from 256 characters).
 */
export function writeLayoutBeforeVersionContent(source: RedlineDb, dir: string): string {
  const migrations = path.join(dir, "migrations-before-version-content");
  fs.mkdirSync(path.join(migrations, "meta"), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: Array<{ idx: number; tag: string }> };
  const packed = journal.entries.find((e) => e.tag.endsWith(`_${VERSION_CONTENT_MIGRATION}`));
  if (!packed) throw new Error(`no migration ${VERSION_CONTENT_MIGRATION} in ${MIGRATIONS_DIR}`);
  journal.entries = journal.entries.filter((e) => e.idx < packed.idx);
  for (const e of journal.entries) fs.copyFileSync(path.join(MIGRATIONS_DIR, `${e.tag}.sql`), path.join(migrations, `${e.tag}.sql`));
  fs.writeFileSync(path.join(migrations, "meta", "_journal.json"), JSON.stringify(journal));
  const file = path.join(dir, "before-version-content.db");
  const old = new Database(file);
  // Migration 0018 packs search text with it.
  registerSearchFunctions(old);
  migrate(drizzle(old), { migrationsFolder: migrations });
  const tables = attachSource(old, source);
  old.transaction(() => {
    for (const table of tables) {
      const columns = old.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().map((c) => c.name);
      const names = columns.map((n) => `"${n}"`).join(", ");
      const values = columns.map((n) => sourceValue(table, n)).join(", ");
      old.exec(`DELETE FROM main."${table}"; INSERT INTO main."${table}" (rowid, ${names}) SELECT rowid, ${values} FROM src."${table}"`);
    }
    const repack = old.prepare<[string | Buffer, number]>("UPDATE main.incident_versions SET changes = ? WHERE id = ?");
    for (const v of old.prepare<[], { id: number; changes: string }>("SELECT id, changes FROM main.incident_versions").all()) repack.run(packJson(v.changes), v.id);
    old.prepare("UPDATE main.sqlite_sequence SET seq = (SELECT seq FROM src.sqlite_sequence WHERE name = 'incident_versions') WHERE name = 'incident_versions'").run();
  })();
  old.exec("DETACH src");
  old.close();
  return file;
}

/** Everything a reader shows of each version's stored content: lists of changes with their field changes, the incident pages, each version's detail. */
export function versionTexts(db: RedlineDb): string {
  const sqlite = db.$client;
  const incidents = sqlite.prepare<[], { id: number; vendorId: number; providerId: string }>("SELECT id, vendor_id AS vendorId, provider_id AS providerId FROM incidents ORDER BY id").all();
  const versions = sqlite.prepare<[], { incidentId: number; seq: number }>("SELECT incident_id AS incidentId, seq FROM incident_versions ORDER BY id").all();
  return JSON.stringify({
    changes: listChanges(db, {}, 100_000).rows,
    pages: incidents.map((i) => getIncidentRecord(db, i.vendorId, i.providerId)?.versions),
    details: versions.map((v) => getVersionDetail(db, v.incidentId, v.seq)),
  });
}
