import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDatabase, MIGRATIONS_DIR, openDatabase, type RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { loadVendorExport } from "@/db/queries/incident-history";
import { incidentsOnly } from "@/tests/support/body-store";
import { listIncidents } from "@/db/queries/incident-list";
import { sideTablesPending } from "@/db/history/layout/side-tables";
import { ensureVendor } from "@/db/settings/vendors";
import { CHANGE_KIND_CODES, CHANGE_KIND_NAMES } from "@/lib/change-kinds";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { corpusAvailable, corpusPath } from "@/tests/support/corpus";
import { copyArchiveInto, fileBeforeMigration } from "@/tests/support/previous-layout";

const MIGRATION = "side_tables";

async function archive(dir: string): Promise<RedlineDb> {
  const db = openDatabase(path.join(dir, "source.db"));
  await archiveAcmeLifecycle(db);
  if (corpusAvailable) {
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    await importSnapshots(db, await ensureVendor(db, { slug: "jira", name: "Jira", platform: platform.name }), platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
  }
  return db;
}

/** Everything read through the side tables: exports, every kind's list of changes (all vendors and each), incidents by kind. */
async function answers(db: RedlineDb): Promise<string> {
  const vendors = db.$client.prepare<[], { id: number; slug: string }>("SELECT id, slug FROM vendors ORDER BY slug").all();
  const exports = [];
  for (const v of vendors) exports.push(incidentsOnly(await loadVendorExport(db, v.slug)));
  const kinds = [];
  for (const kind of CHANGE_KIND_NAMES) {
    const byVendor = [];
    for (const v of vendors) byVendor.push((await listChanges(db, { vendorId: v.id, kinds: [kind, "title-changed"] }, 500)).rows.map((r) => r.versionId));
    kinds.push({
      all: (await listChanges(db, { kinds: [kind] }, 500)).rows.map((r) => r.versionId),
      byVendor,
      incidents: (await listIncidents(db, { kinds: [kind] }, 500)).rows.map((r) => r.id),
    });
  }
  return JSON.stringify({ exports, kinds });
}

const rowsOf = (db: RedlineDb, table: string, order: string) => db.$client.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
const schemaOf = (db: RedlineDb, name: string) => db.$client.prepare<[string], { sql: string }>("SELECT sql FROM sqlite_master WHERE name = ?").get(name)?.sql ?? "";

// Only SQLite files of earlier Redlines have the previous layouts: PostgreSQL support began after them.
describe("the side tables' layout (SQLite)", () => {
  it("gives every kind a code of its own, and the migration converts each name to that code", () => {
    expect([...CHANGE_KIND_CODES].sort()).toEqual([...CHANGE_KIND_NAMES].sort());
    const tag = fs.readdirSync(MIGRATIONS_DIR).find((f) => f.endsWith(`_${MIGRATION}.sql`)) ?? "";
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, tag), "utf8");
    const pairs = [...sql.matchAll(/WHEN '([a-z-]+)' THEN (\d+)/g)].map((m) => [m[1], Number(m[2])]);
    // Kinds added since take the codes after the ones it knew: no row it converted could name them.
    expect(pairs).toEqual(CHANGE_KIND_CODES.slice(0, pairs.length).map((name, code) => [name, code]));
    expect(CHANGE_KIND_CODES.slice(pairs.length)).toEqual(["new-source-report", "update-extended"]);
  });

  it(`migrates a database of the previous layout in place, exporting and listing every kind identically${corpusAvailable ? "" : " (lifecycle fixture only: corpus not found, set REDLINE_CORPUS)"}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-side-tables-"));
    const source = await archive(dir);
    const expected = await answers(source);
    const parsed = JSON.parse(expected) as { kinds: Array<{ all: number[] }> };
    // Lists that are empty would compare equal without proving anything.
    expect(parsed.kinds.filter((k) => k.all.length > 0).length).toBeGreaterThan(8);
    const file = fileBeforeMigration(dir, MIGRATION);
    copyArchiveInto(file, source);

    const before = openDatabase(file, { migrate: false });
    expect(schemaOf(before, "version_kinds")).toContain("`observed_at` text");
    expect(before.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM version_kinds WHERE kind = 'impact-downgraded'").get()?.n).toBeGreaterThan(0);
    // A name an older Redline wrote and no kind has now: nothing can ask for it, and it must not stop the migration.
    before.$client.prepare("INSERT INTO version_kinds (version_id, kind, vendor_id, observed_at) SELECT id, 'kind-of-the-past', vendor_id, observed_at FROM incident_versions LIMIT 1").run();
    closeDatabase(before);

    const migrated = openDatabase(file);
    for (const table of ["version_kinds", "incident_sources", "incident_components"]) expect(schemaOf(migrated, table)).toMatch(/WITHOUT ROWID$/);
    for (const gone of ["incidents_vendor_source_presence", "incidents_vendor_changed", "incidents_vendor_presence_seen", "incident_sources_vendor_source"]) expect(schemaOf(migrated, gone)).toBe("");
    expect(rowsOf(migrated, "version_kinds", "kind, observed_ms, version_id")).toEqual(rowsOf(source, "version_kinds", "kind, observed_ms, version_id"));
    expect(rowsOf(migrated, "incident_sources", "incident_id, source")).toEqual(rowsOf(source, "incident_sources", "incident_id, source"));
    expect(rowsOf(migrated, "incident_components", "incident_id, component_id")).toEqual(rowsOf(source, "incident_components", "incident_id, component_id"));
    expect(await answers(migrated)).toBe(expected);
    closeDatabase(migrated);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it("leaves the previous layout whole when the rebuild fails part way, and the next migrate finishes it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-side-tables-fail-"));
    const source = openDatabase(path.join(dir, "source.db"));
    await archiveAcmeLifecycle(source);
    const expected = await answers(source);
    const file = fileBeforeMigration(dir, MIGRATION);
    copyArchiveInto(file, source);
    const before = openDatabase(file, { migrate: false });
    // A time SQLite cannot read fails the rebuild after its first statements have run.
    const broken = before.$client.prepare<[], { versionId: number; observedAt: string }>("SELECT version_id AS versionId, observed_at AS observedAt FROM version_kinds LIMIT 1").get();
    before.$client.prepare<[number]>("UPDATE version_kinds SET observed_at = 'not a time' WHERE version_id = ?").run(broken?.versionId ?? 0);
    const indexes = before.$client.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").all();
    closeDatabase(before);

    const failure = (() => {
      try {
        openDatabase(file);
      } catch (error) {
        return error as Error;
      }
    })();
    expect(failure?.message.split("\n")).toEqual(["store: NOT NULL constraint failed: __new_version_kinds.observed_ms", expect.stringMatching(/^ {2}while applying the migrations in db\/migrations \(\d{4}_side_tables\.sql\)$/)]);
    const causes: string[] = [];
    for (let e: unknown = failure; e instanceof Error; e = e.cause) causes.push(e.message);
    expect(causes.join("\n")).toMatch(/NOT NULL constraint failed: __new_version_kinds.observed_ms/);
    const untouched = openDatabase(file, { migrate: false });
    expect(sideTablesPending(untouched.$client)).toBe(true);
    expect(untouched.$client.prepare("SELECT name, sql FROM sqlite_master ORDER BY name").all()).toEqual(indexes);
    untouched.$client.prepare<[string, number]>("UPDATE version_kinds SET observed_at = ? WHERE version_id = ?").run(broken?.observedAt ?? "", broken?.versionId ?? 0);
    closeDatabase(untouched);

    const migrated = openDatabase(file);
    expect(sideTablesPending(migrated.$client)).toBe(false);
    expect(await answers(migrated)).toBe(expected);
    closeDatabase(migrated);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
