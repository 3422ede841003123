import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore, redact } from "@/db/client";
import type { StorageStats } from "@/db/queries/storage-stats";
import { freshLocation, queryRow } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

function redline(args: string[]) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

type StatsJson = StorageStats & ({ file: string; onDisk: { db: number; wal: number; shm: number } } | { url: string; onDisk: { database: number } });

/** A folder of `count` snapshots, each renaming the incident, starting at minute `from`. */
function writeFolder(dir: string, name: string, from: number, count: number): { folder: string; raw: number } {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  let raw = 0;
  for (let i = from; i < from + count; i += 1) {
    const body = FIXTURE.replace("Card payouts delayed", `Card payouts delayed (${i})`);
    raw += Buffer.byteLength(body);
    fs.writeFileSync(path.join(folder, `20260301T10${String(i).padStart(2, "0")}00Z__summary.json`), body);
  }
  return { folder, raw };
}

const tableBytes = (s: StorageStats) => s.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0);

describe(`redline stats (${testDatabaseDialect})`, () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-stats-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function imported(name: string, count: number): Promise<string> {
    const db = await freshLocation(dir, { name });
    const { folder } = writeFolder(dir, name, 0, count);
    expect(redline(["import", folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    return db;
  }

  it("prints figures that add up, and a vendor's grow when it imports more", async () => {
    const db = await freshLocation(dir, { name: "grow" });
    const first = writeFolder(dir, "first", 0, 3);
    // Enough that PostgreSQL's 8 KB pages cannot hold them all where the first three left room.
    const later = writeFolder(dir, "later", 3, 30);
    expect(redline(["import", first.folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const before = redline(["stats", "--json", "--db", db]);
    expect(before.stderr).toBe("");
    expect(before.code).toBe(0);
    const b = JSON.parse(before.stdout) as StatsJson;
    expect(tableBytes(b) + b.freeBytes).toBe(b.databaseBytes);
    expect(b.rawBytes).toBe(first.raw);

    expect(redline(["import", later.folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const a = JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StatsJson;
    const [v0, v1] = [b.vendors[0], a.vendors[0]];
    expect(v1?.slug).toBe("acme");
    expect(v1?.parts.captures.rows).toBe(33);
    expect(v1?.parts.versions.rows).toBeGreaterThan(v0?.parts.versions.rows ?? Infinity);
    expect(v1?.parts.versions.bytes).toBeGreaterThan(v0?.parts.versions.bytes ?? Infinity);
    expect(v1?.approxDiskBytes).toBeGreaterThan(v0?.approxDiskBytes ?? Infinity);
    expect(a.rawBytes).toBe(first.raw + later.raw);
  });

  it.skipIf(testDatabaseDialect !== "sqlite")("counts every page of the file, which is all there is on disk once a command closed it (SQLite)", async () => {
    const db = await imported("closed", 3);
    const stats = JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StatsJson;
    expect(stats).toMatchObject({ file: db, onDisk: { db: stats.databaseBytes, wal: 0, shm: 0 } });
  });

  it.skipIf(testDatabaseDialect !== "postgres")("reports the database's own size, its archive tables and the catalogs beside them (PostgreSQL)", async () => {
    const db = await imported("size", 3);
    const stats = JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StatsJson;
    expect(stats).toMatchObject({ url: redact(db), onDisk: { database: stats.databaseBytes } });
    expect(stats).not.toHaveProperty("file");
    // The catalogs are in the database's files too, so its size passes its archive tables'.
    expect(stats.freeBytes).toBeGreaterThan(0);
    const store = await openStore(db, { migrate: false });
    try {
      const size = await queryRow<{ bytes: number }>(store, "SELECT pg_database_size(current_database()) AS bytes");
      // What autovacuum adds meanwhile (a visibility map, a free space map) is a few pages at most.
      expect(Math.abs((size?.bytes ?? 0) - stats.databaseBytes)).toBeLessThanOrEqual(16 * stats.pageSize);
    } finally {
      await closeStore(store);
    }
    const out = redline(["stats", "--db", db]);
    expect(out.code).toBe(0);
    expect(out.stdout.split("\n")[0]).toBe(`database ${redact(db)}: ${(stats.databaseBytes / 1e6).toFixed(1)} MB on disk (pg_database_size)`);
    expect(out.stdout).toMatch(/^catalogs and free space +[\d.]+ [KM]B$/m);
  });

  it("prints a table per table and per vendor, with the ratio to the raw bytes", async () => {
    const db = await freshLocation(dir, { name: "text" });
    const { folder } = writeFolder(dir, "text", 0, 2);
    redline(["import", folder, "--vendor", "globex", "--platform", "statuspage-summary", "--db", db]);
    const out = redline(["stats", "--db", db]);
    expect(out.code).toBe(0);
    // An empty PostgreSQL database is already megabytes of catalogs.
    const unit = testDatabaseDialect === "sqlite" ? "KB" : "MB";
    expect(out.stdout.startsWith(`database ${redact(db)}: `)).toBe(true);
    expect(out.stdout).toMatch(new RegExp(`^database .*: [\\d.]+ ${unit} on disk`));
    expect(out.stdout).toMatch(/database \/ raw: \d+\.\d{3}x/);
    const versions = (JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StatsJson).vendors[0]?.parts.versions.rows;
    expect(versions).toBeGreaterThan(0);
    expect(out.stdout).toMatch(new RegExp(`^incident_versions +${versions} `, "m"));
    expect(out.stdout).toMatch(new RegExp(`^all pages +[\\d.]+ ${unit}$`, "m"));
    expect(out.stdout).toMatch(/^globex +[\d.]+ KB/m);
  });

  it.skipIf(testDatabaseDialect !== "sqlite")("refuses a database that does not exist, and creates none (SQLite)", async () => {
    const db = await freshLocation(dir, { name: "missing" });
    const out = redline(["stats", "--db", db]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`redline: no archive at ${db}: `);
    expect(fs.existsSync(db)).toBe(false);
  });

  it.skipIf(testDatabaseDialect !== "postgres")("refuses a database that does not exist, and creates none (PostgreSQL)", async () => {
    const url = new URL(await freshLocation(dir, { name: "present" }));
    url.pathname = `${url.pathname}_missing`;
    const out = redline(["stats", "--db", url.toString()]);
    expect(out.code).toBe(1);
    expect(out.stderr).toMatch(/^redline: .*does not exist/);
    const store = await openStore(url.toString(), { migrate: false });
    try {
      await expect(queryRow(store, "SELECT 1 AS one")).rejects.toThrow(/does not exist/);
    } finally {
      await closeStore(store);
    }
  });
});
