/** Versions as they were before migration 0021 packed their changes and text into one content column. */
import Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import { packJson } from "@/db/history/packed-json";
import { listChanges } from "@/db/queries/changes";
import { getIncidentRecord, getVersionDetail } from "@/db/queries/incident-page";
import { attachSource, copyFromSource, fileBeforeMigration } from "@/tests/support/previous-layout";

const VERSION_CONTENT_MIGRATION = "version_content";

/**
 * A copy of `source` in the layout before the version content migration: every table's rows, each
 * version's changes, summary, headline, title, impact and kind in columns of their own, changes
 * packed as that write path packed them (deflated from 256 characters).
 */
export function writeLayoutBeforeVersionContent(source: RedlineDb, dir: string): string {
  const file = fileBeforeMigration(dir, VERSION_CONTENT_MIGRATION);
  const old = new Database(file);
  const tables = attachSource(old, source);
  old.transaction(() => {
    for (const table of tables) old.exec(copyFromSource(old, table));
    const repack = old.prepare<[string | Buffer, number]>("UPDATE main.incident_versions SET changes = ? WHERE id = ?");
    for (const v of old.prepare<[], { id: number; changes: string }>("SELECT id, changes FROM main.incident_versions").all()) repack.run(packJson(v.changes), v.id);
    old.prepare("UPDATE main.sqlite_sequence SET seq = (SELECT seq FROM src.sqlite_sequence WHERE name = 'incident_versions') WHERE name = 'incident_versions'").run();
  })();
  old.exec("DETACH src");
  old.close();
  return file;
}

/** Everything a reader shows of each version's stored content: lists of changes with their field changes, the incident pages, each version's detail. */
export async function versionTexts(db: RedlineDb): Promise<string> {
  const sqlite = db.$client;
  const incidents = sqlite.prepare<[], { id: number; vendorId: number; providerId: string }>("SELECT id, vendor_id AS vendorId, provider_id AS providerId FROM incidents ORDER BY id").all();
  const versions = sqlite.prepare<[], { incidentId: number; seq: number }>("SELECT incident_id AS incidentId, seq FROM incident_versions ORDER BY id").all();
  const changes = (await listChanges(db, {}, 100_000)).rows;
  const pages = [];
  for (const i of incidents) pages.push((await getIncidentRecord(db, i.vendorId, i.providerId))?.versions);
  const details = [];
  for (const v of versions) details.push(await getVersionDetail(db, v.incidentId, v.seq));
  return JSON.stringify({ changes, pages, details });
}
