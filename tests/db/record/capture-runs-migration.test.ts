import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, openDatabase, type RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor, getVendorBySlug } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { renderExportJson } from "@/lib/export-document";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "e2e", "acme-summary");
const FIRST_RUN_MIGRATION = "0014_capture_runs";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-runs-migration-"));
  dirs.push(dir);
  return dir;
}

/** The migrations as they were before capture runs. */
function previousMigrations(): string {
  const dir = tempDir();
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalFile, "utf8")) as { entries: Array<{ tag: string }> };
  journal.entries = journal.entries.filter((e) => e.tag < FIRST_RUN_MIGRATION);
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

/** Every hour's snapshot, then the same body observed again three times, ten minutes apart. */
const observations = fs
  .readdirSync(FIXTURES)
  .sort()
  .flatMap((name) => {
    const at = Date.parse(`${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}T${name.slice(9, 11)}:00:00.000Z`);
    const body = fs.readFileSync(path.join(FIXTURES, name));
    return [0, 10, 20, 30].map((m) => ({ observedAt: new Date(at + m * 60_000).toISOString(), body }));
  });

async function exportOf(db: RedlineDb): Promise<string> {
  const doc = await loadVendorExport(db, "acme");
  if (!doc) throw new Error("no vendor acme");
  return renderExportJson(doc);
}

// Only SQLite files of earlier Redlines have this layout: PostgreSQL support began after it.
describe("migrating captures recorded one row per observation (SQLite)", () => {
  it("keeps each old row as a run of one, and the history re-derived from them is the one runs give", async () => {
    const file = path.join(tempDir(), "old.db");
    const old = openDatabase(file, { migrate: false });
    migrate(old, { migrationsFolder: previousMigrations() });
    const sqlite = old.$client;
    sqlite.prepare("INSERT INTO vendors (id, slug, name, platform, created_at) VALUES (1, 'acme', 'Acme', 'statuspage-summary', '2026-03-01T00:00:00.000Z')").run();
    const insertBody = sqlite.prepare("INSERT OR IGNORE INTO capture_bodies (hash, encoding, size, body) VALUES (?, 'gzip', ?, ?)");
    const insertCapture = sqlite.prepare(
      `INSERT INTO captures (vendor_id, source, platform, observed_at, outcome, size, hash, body_hash, recorded_at)
       VALUES (1, 'summary.json', 'statuspage-summary', ?, 'ok', ?, ?, ?, ?)`,
    );
    for (const o of observations) {
      const hash = sha256Hex(o.body);
      insertBody.run(hash, o.body.length, gzipSync(o.body));
      insertCapture.run(o.observedAt, o.body.length, hash, hash, o.observedAt);
    }
    sqlite.close();

    const migrated = openDatabase(file);
    const rows = migrated.$client.prepare("SELECT observed_at AS first, last_observed_at AS last, observations FROM captures ORDER BY observed_at").all();
    expect(rows).toEqual(observations.map((o) => ({ first: o.observedAt, last: o.observedAt, observations: 1 })));
    await queueJob(migrated, 1, "requested", null);
    await runPendingJobs(migrated, { vendorId: 1 });

    const fresh = openDatabase(path.join(tempDir(), "fresh.db"));
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no platform");
    const vendor = await ensureVendor(fresh, { slug: "acme", name: "Acme", platform: platform.name });
    const snapshots = observations.map((o, i) => ({ label: `#${i}`, observedAt: o.observedAt, source: "summary.json", read: () => o.body }));
    await importSnapshots(fresh, vendor, platform, snapshots);
    expect(fresh.$client.prepare("SELECT count(*) AS n FROM captures").get()).toEqual({ n: fs.readdirSync(FIXTURES).length });
    expect(await exportOf(migrated)).toBe(await exportOf(fresh));
    // New observations continue where the migrated rows left off.
    const oldVendor = await getVendorBySlug(migrated, "acme");
    if (!oldVendor) throw new Error("acme lost in migration");
    await importSnapshots(migrated, oldVendor, platform, [{ label: "again", observedAt: "2026-03-02T13:40:00.000Z", source: "summary.json", read: () => observations.at(-1)?.body ?? Buffer.alloc(0) }]);
    expect(migrated.$client.prepare("SELECT observations, last_observed_at AS last FROM captures ORDER BY observed_at DESC LIMIT 1").get()).toEqual({ observations: 2, last: "2026-03-02T13:40:00.000Z" });
    migrated.$client.close();
    fresh.$client.close();
  });
});
