import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { backupDatabase, restoreDatabase } from "@/db/operations/backup";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { loadIncidentExport } from "@/db/queries/exports";
import { ensureVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const platform = makeTestPlatform({ kind: "recent", limit: 25 });
const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-backup-"));
  dirs.push(dir);
  return dir;
}

async function seeded(file: string): Promise<RedlineDb> {
  const db = openDatabase(file);
  await archiveAcmeLifecycle(db, platform);
  return db;
}

const exportOf = async (db: RedlineDb) => JSON.stringify(await loadIncidentExport(db, "acme", "k3x9"));

// `redline backup` copies a SQLite file; PostgreSQL is backed up with its own tools (tests/db/postgres/backups.test.ts).
describe("backup and restore of the archive file (SQLite)", () => {
  it("copies a consistent snapshot while another connection is writing, and restores it exactly", async () => {
    const dir = tempDir();
    const live = path.join(dir, "redline.db");
    const db = await seeded(live);
    const before = await exportOf(db);
    // A writer in the middle of a transaction: the backup neither waits for it nor includes it.
    const writer = new Database(live);
    writer.exec("BEGIN IMMEDIATE");
    writer.prepare("UPDATE vendors SET name = 'Half-written' WHERE slug = 'acme'").run();
    const summary = await backupDatabase(live, path.join(dir, "backup.db"));
    writer.exec("COMMIT");
    writer.close();
    expect(summary.versions).toBeGreaterThan(5);
    const copy = new Database(summary.file, { readonly: true });
    expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
    expect((copy.prepare("SELECT name FROM vendors WHERE slug = 'acme'").get() as { name: string }).name).toBe("Acme Cloud");
    copy.close();

    // Later the live database gains an incident; restoring the backup brings back the earlier state.
    const acme = await ensureVendor(db, { slug: "acme", platform: platform.name });
    await ingestSnapshot(db, { vendor: acme, platform, source: "incidents.json", observedAt: "2026-06-01T00:00:00.000Z", body: snapshotBody([makeIncident({ vendor: "acme", id: "late" })]) });
    closeDatabase(db);
    const restored = await restoreDatabase(summary.file, live, new Date("2026-06-02T00:00:00.000Z"));
    expect(restored.versions).toBe(summary.versions);
    const after = openDatabase(live);
    expect(await exportOf(after)).toBe(before);
    expect(await loadIncidentExport(after, "acme", "late")).toBeUndefined();
    closeDatabase(after);
    // What the restore replaced is kept, with the late incident in it.
    expect(restored.previous).toMatch(/redline\.db\.before-restore-2026-06-02T00-00-00-000Z$/);
    const previous = openDatabase(restored.previous ?? "", { readonly: true });
    expect(await loadIncidentExport(previous, "acme", "late")).toBeDefined();
    closeDatabase(previous);
  });

  it("refuses to overwrite a file, and refuses to restore a damaged or foreign file", async () => {
    const dir = tempDir();
    const live = path.join(dir, "redline.db");
    closeDatabase(await seeded(live));
    fs.writeFileSync(path.join(dir, "taken.db"), "x");
    await expect(backupDatabase(live, path.join(dir, "taken.db"))).rejects.toThrow(/exists/);
    fs.writeFileSync(path.join(dir, "garbage.db"), "this is not a database".repeat(100));
    await expect(restoreDatabase(path.join(dir, "garbage.db"), live)).rejects.toThrow(/^restore: /);
    const foreign = new Database(path.join(dir, "foreign.db"));
    foreign.exec("CREATE TABLE t (x)");
    foreign.close();
    await expect(restoreDatabase(path.join(dir, "foreign.db"), live)).rejects.toThrow(/not a Redline database/);
    // Nothing was replaced.
    const db = openDatabase(live);
    expect(await exportOf(db)).toContain("k3x9");
    closeDatabase(db);
  });
});
