import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorageStats } from "@/db/queries/storage-stats";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

function redline(args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), ...args], { cwd: ROOT, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

type StatsJson = StorageStats & { file: string; onDisk: { db: number; wal: number; shm: number } };

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

describe("redline stats", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-stats-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("prints figures that add up, and a vendor's grow when it imports more", () => {
    const db = path.join(dir, "grow.db");
    const first = writeFolder(dir, "first", 0, 3);
    const later = writeFolder(dir, "later", 3, 5);
    expect(redline(["import", first.folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const before = redline(["stats", "--json", "--db", db]);
    expect(before.code).toBe(0);
    const b = JSON.parse(before.stdout) as StatsJson;
    // The import command closed the database, so what is on disk is the file alone, every page of it.
    expect(b.onDisk.db).toBe(b.databaseBytes);
    expect(b.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0) + b.freeBytes).toBe(b.databaseBytes);
    expect(b.rawBytes).toBe(first.raw);

    expect(redline(["import", later.folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const a = JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StatsJson;
    const [v0, v1] = [b.vendors[0], a.vendors[0]];
    expect(v1?.slug).toBe("acme");
    expect(v1?.parts.captures.rows).toBe(8);
    expect(v1?.parts.versions.rows).toBeGreaterThan(v0?.parts.versions.rows ?? Infinity);
    expect(v1?.approxDiskBytes).toBeGreaterThan(v0?.approxDiskBytes ?? Infinity);
    expect(a.rawBytes).toBe(first.raw + later.raw);
  });

  it("prints a table per table and per vendor, with the ratio to the raw bytes", () => {
    const db = path.join(dir, "text.db");
    const { folder } = writeFolder(dir, "text", 0, 2);
    redline(["import", folder, "--vendor", "globex", "--platform", "statuspage-summary", "--db", db]);
    const out = redline(["stats", "--db", db]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^database .*text\.db: [\d.]+ KB on disk/);
    expect(out.stdout).toMatch(/database \/ raw: \d+\.\d{3}x/);
    const versions = (JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StatsJson).vendors[0]?.parts.versions.rows;
    expect(versions).toBeGreaterThan(0);
    expect(out.stdout).toMatch(new RegExp(`^incident_versions +${versions} `, "m"));
    expect(out.stdout).toMatch(/^all pages +[\d.]+ KB$/m);
    expect(out.stdout).toMatch(/^globex +[\d.]+ KB/m);
  });

  it("refuses a database that does not exist, and creates none", () => {
    const db = path.join(dir, "missing.db");
    const out = redline(["stats", "--db", db]);
    expect(out.code).toBe(1);
    expect(out.stderr).toContain(`redline: no database at ${db}`);
    expect(fs.existsSync(db)).toBe(false);
  });
});
