import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { convertVersionLayout, versionLayoutPending } from "@/db/history/layout/convert-versions";
import { listChanges } from "@/db/queries/changes";
import { loadVendorExport } from "@/db/queries/incident-history";
import { readVersionState } from "@/db/history/version-states";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { corpusAvailable, corpusPath } from "@/tests/support/corpus";
import { writePatchLayout } from "@/tests/support/patch-layout";
import { incidentsOnly } from "@/tests/support/body-store";
import { previousLayoutFile, writePreviousLayout } from "@/tests/support/previous-layout";

class SimulatedCrash extends Error {
  readonly kind = "crash";
}

async function archive(dir: string, withCorpus: boolean): Promise<RedlineDb> {
  const db = openDatabase(path.join(dir, "source.db"));
  await archiveAcmeLifecycle(db);
  if (withCorpus) {
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    await importSnapshots(db, await ensureVendor(db, { slug: "jira", name: "Jira", platform: platform.name }), platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
  }
  return db;
}

const slugsOf = (db: RedlineDb) => db.$client.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY slug").all().map((r) => r.slug);

async function exportsBySlug(db: RedlineDb): Promise<Map<string, string>> {
  const exports = new Map<string, string>();
  for (const slug of slugsOf(db)) exports.set(slug, JSON.stringify(incidentsOnly(await loadVendorExport(db, slug))));
  return exports;
}

// Only SQLite files of earlier Redlines have the previous layouts: PostgreSQL support began after them.
describe("converting a database of the previous layout in place (SQLite)", () => {
  it(`exports every vendor identically after a crash mid-conversion and a second run${corpusAvailable ? "" : " (lifecycle fixture only: corpus not found, set REDLINE_CORPUS)"}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-convert-"));
    const source = await archive(dir, corpusAvailable);
    const expected = await exportsBySlug(source);
    const changes = JSON.stringify((await listChanges(source, {}, 500)).rows);
    const file = previousLayoutFile(dir);
    await writePreviousLayout(source, file);

    const migrated = openDatabase(file);
    expect(versionLayoutPending(migrated.$client)).toBe(true);
    // Exports read the previous layout's rows as they are, before any conversion.
    for (const [slug, json] of expected) expect(JSON.stringify(incidentsOnly(await loadVendorExport(migrated, slug)))).toBe(json);
    let batches = 0;
    await expect(
      convertVersionLayout(migrated, {
        batch: 1,
        onBatch: () => {
          batches += 1;
          if (batches === 2) throw new SimulatedCrash("killed after two incidents");
        },
      }),
    ).rejects.toThrow(SimulatedCrash);
    closeDatabase(migrated);

    const resumed = openDatabase(file);
    expect(versionLayoutPending(resumed.$client)).toBe(true);
    const done = await convertVersionLayout(resumed);
    expect(done.versionsRewritten).toBeGreaterThan(0);
    expect(versionLayoutPending(resumed.$client)).toBe(false);
    expect(await convertVersionLayout(resumed)).toMatchObject({ versionsRewritten: 0, statesRewritten: 0 });
    for (const [slug, json] of expected) expect(JSON.stringify(incidentsOnly(await loadVendorExport(resumed, slug)))).toBe(json);
    expect(JSON.stringify((await listChanges(resumed, {}, 500)).rows)).toBe(changes);
    const versions = source.$client.prepare<[], { incidentId: number; seq: number }>("SELECT incident_id AS incidentId, seq FROM incident_versions").all();
    for (const v of versions) expect(await readVersionState(resumed, v.incidentId, v.seq)).toEqual(await readVersionState(source, v.incidentId, v.seq));
    const full = resumed.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM incident_versions WHERE snapshot IS NOT NULL").get()?.n ?? 0;
    expect(full).toBeLessThan(versions.length);
    closeDatabase(resumed);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it(`exports every vendor identically from the forward-patch layout after a crash mid-conversion and a second run${corpusAvailable ? "" : " (lifecycle fixture only: corpus not found, set REDLINE_CORPUS)"}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-convert-patches-"));
    const source = await archive(dir, corpusAvailable);
    const expected = await exportsBySlug(source);
    const file = path.join(dir, "patches.db");
    await source.$client.backup(file);
    const old = openDatabase(file);
    await writePatchLayout(old);
    const textPatches = (db: RedlineDb) =>
      db.$client.prepare<[], { n: number }>("SELECT (SELECT count(*) FROM incident_versions WHERE typeof(patch) = 'text') + (SELECT count(*) FROM incident_states WHERE typeof(patch) = 'text') AS n").get()?.n ?? 0;
    expect(textPatches(old)).toBeGreaterThan(0);
    expect(versionLayoutPending(old.$client)).toBe(true);
    for (const [slug, json] of expected) expect(JSON.stringify(incidentsOnly(await loadVendorExport(old, slug)))).toBe(json);
    await expect(
      convertVersionLayout(old, {
        batch: 1,
        onBatch: (p) => {
          if (p.incidents === 2) throw new SimulatedCrash("killed after two incidents");
        },
      }),
    ).rejects.toThrow(SimulatedCrash);
    closeDatabase(old);

    const resumed = openDatabase(file);
    expect(versionLayoutPending(resumed.$client)).toBe(true);
    expect((await convertVersionLayout(resumed)).versionsRewritten).toBeGreaterThan(0);
    expect(versionLayoutPending(resumed.$client)).toBe(false);
    expect(textPatches(resumed)).toBe(0);
    expect(await convertVersionLayout(resumed)).toMatchObject({ versionsRewritten: 0, statesRewritten: 0 });
    for (const [slug, json] of expected) expect(JSON.stringify(incidentsOnly(await loadVendorExport(resumed, slug)))).toBe(json);
    const versions = source.$client.prepare<[], { incidentId: number; seq: number }>("SELECT incident_id AS incidentId, seq FROM incident_versions").all();
    for (const v of versions) expect(await readVersionState(resumed, v.incidentId, v.seq)).toEqual(await readVersionState(source, v.incidentId, v.seq));
    closeDatabase(resumed);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
