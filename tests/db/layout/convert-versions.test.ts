import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { describe, expect, it } from "vitest";
import { closeDatabase, MIGRATIONS_DIR, openDatabase, type RedlineDb } from "@/db/client";
import { convertVersionLayout, versionLayoutPending } from "@/db/layout/convert-versions";
import { listChanges } from "@/db/queries/changes";
import { loadVendorExport } from "@/db/queries/incident-history";
import { replayStateRows } from "@/db/state-log";
import { readVersionState } from "@/db/version-states";
import { ensureVendor } from "@/db/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { corpusAvailable, corpusPath } from "@/tests/support/corpus";

/** The last migration of the layout that stored every version's snapshot and every record state in full. */
const LAST_FULL_LAYOUT = 12;

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), "redline-convert-"));
}

/** A database file with the schema as it was before versions were kept as patches. */
function previousLayoutFile(dir: string): string {
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

/** Copy an archive into a previous-layout file, every version and record state written out in full as that layout had them. */
function writePreviousLayout(source: RedlineDb, file: string): void {
  const old = new Database(file);
  old.pragma("foreign_keys = OFF");
  old.exec(`ATTACH '${source.$client.name}' AS src`);
  const tables = old
    .prepare<[], { name: string }>("SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' AND name NOT LIKE 'incident_search_%'")
    .all()
    .map((t) => t.name);
  old.transaction(() => {
    for (const table of tables) {
      const names = old.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`).all().map((c) => c.name);
      // Filled in full below; the previous layout has them NOT NULL.
      const values = names.map((n) => (n === "snapshot" || n === "state" ? `coalesce("${n}", '{}')` : `"${n}"`)).join(", ");
      old.exec(`DELETE FROM main."${table}"; INSERT INTO main."${table}" (rowid, ${names.map((n) => `"${n}"`).join(", ")}) SELECT rowid, ${values} FROM src."${table}"`);
    }
    const setSnapshot = old.prepare<[string, number]>("UPDATE main.incident_versions SET snapshot = ? WHERE id = ?");
    for (const v of source.$client.prepare<[], { id: number; incidentId: number; seq: number }>("SELECT id, incident_id AS incidentId, seq FROM incident_versions").all()) {
      setSnapshot.run(JSON.stringify(readVersionState(source, v.incidentId, v.seq)), v.id);
    }
    const setState = old.prepare<[string, number]>("UPDATE main.incident_states SET state = ? WHERE id = ?");
    const states = source.$client.prepare<[number], { id: number; state: string | null; patch: string | null }>("SELECT id, state, patch FROM incident_states WHERE incident_id = ? ORDER BY id");
    for (const { id } of source.$client.prepare<[], { id: number }>("SELECT id FROM incidents").all()) {
      const rows = states.all(id);
      replayStateRows(rows).forEach((text, i) => setState.run(text, rows[i]?.id ?? 0));
    }
  })();
  old.close();
}

class SimulatedCrash extends Error {
  readonly kind = "crash";
}

async function archive(dir: string, withCorpus: boolean): Promise<RedlineDb> {
  const db = openDatabase(path.join(dir, "source.db"));
  await archiveAcmeLifecycle(db);
  if (withCorpus) {
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    await importSnapshots(db, ensureVendor(db, { slug: "jira", name: "Jira", platform: platform.name }), platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
  }
  return db;
}

const slugsOf = (db: RedlineDb) => db.$client.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY slug").all().map((r) => r.slug);

describe("converting a database of the previous layout in place", () => {
  it(`exports every vendor identically after a crash mid-conversion and a second run${corpusAvailable ? "" : " (lifecycle fixture only: corpus not found, set REDLINE_CORPUS)"}`, async () => {
    const dir = tempDir();
    const source = await archive(dir, corpusAvailable);
    const expected = new Map(slugsOf(source).map((slug) => [slug, JSON.stringify(loadVendorExport(source, slug))]));
    const changes = JSON.stringify(listChanges(source, {}, 500).rows);
    const file = previousLayoutFile(dir);
    writePreviousLayout(source, file);

    const migrated = openDatabase(file);
    expect(versionLayoutPending(migrated.$client)).toBe(true);
    // Exports read the previous layout's rows as they are, before any conversion.
    for (const [slug, json] of expected) expect(JSON.stringify(loadVendorExport(migrated, slug))).toBe(json);
    let batches = 0;
    expect(() =>
      convertVersionLayout(migrated, {
        batch: 1,
        onBatch: () => {
          batches += 1;
          if (batches === 2) throw new SimulatedCrash("killed after two incidents");
        },
      }),
    ).toThrow(SimulatedCrash);
    closeDatabase(migrated);

    const resumed = openDatabase(file);
    expect(versionLayoutPending(resumed.$client)).toBe(true);
    const done = convertVersionLayout(resumed);
    expect(done.versionsRewritten).toBeGreaterThan(0);
    expect(versionLayoutPending(resumed.$client)).toBe(false);
    expect(convertVersionLayout(resumed)).toMatchObject({ versionsRewritten: 0, statesRewritten: 0 });
    for (const [slug, json] of expected) expect(JSON.stringify(loadVendorExport(resumed, slug))).toBe(json);
    expect(JSON.stringify(listChanges(resumed, {}, 500).rows)).toBe(changes);
    const versions = source.$client.prepare<[], { incidentId: number; seq: number }>("SELECT incident_id AS incidentId, seq FROM incident_versions").all();
    for (const v of versions) expect(readVersionState(resumed, v.incidentId, v.seq)).toEqual(readVersionState(source, v.incidentId, v.seq));
    const full = resumed.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM incident_versions WHERE snapshot IS NOT NULL").get()?.n ?? 0;
    expect(full).toBeLessThan(versions.length);
    closeDatabase(resumed);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
