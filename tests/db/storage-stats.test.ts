import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { readStorageStats, type StorageStats, VENDOR_PARTS } from "@/db/queries/storage-stats";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { countRows, freshDatabase } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const FIXTURE = fs.readFileSync(path.join(__dirname, "..", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

/** Snapshots `from`..`to` of one endpoint, each renaming the incident (so each is a new body and a new version). */
async function importRenames(db: RedlineDb, slug: string, from: number, to: number): Promise<number> {
  const platform = getPlatform("statuspage-summary");
  if (!platform) throw new Error("no statuspage-summary platform");
  const vendor = await ensureVendor(db, { slug, platform: platform.name });
  let raw = 0;
  const snapshots = [];
  for (let i = from; i < to; i += 1) {
    const body = Buffer.from(FIXTURE.replace("Card payouts delayed", `Card payouts delayed (${slug} ${i})`));
    raw += body.byteLength;
    const observedAt = new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString();
    snapshots.push({ label: `${slug}-${i}`, observedAt, source: "summary.json", read: () => body });
  }
  await importSnapshots(db, vendor, platform, snapshots);
  return raw;
}

function vendorOf(stats: StorageStats, slug: string) {
  const v = stats.vendors.find((x) => x.slug === slug);
  if (!v) throw new Error(`no vendor ${slug} in the stats`);
  return v;
}

function diskOf(stats: StorageStats, table: string): number {
  const t = stats.tables.find((x) => x.name === table);
  return t ? t.tableBytes + t.indexBytes : 0;
}

describe("storage statistics", () => {
  // Pages and free pages are how a SQLite file is laid out; PostgreSQL's sizes are its relations' (the next test).
  it.skipIf(testDatabaseDialect === "postgres")("accounts for every page (SQLite): tables and their indexes plus free pages make the database", async () => {
    const db = await freshDatabase();
    await importRenames(db, "acme", 0, 12);
    const stats = await readStorageStats(db);
    const counted = stats.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0);
    expect(counted + stats.freeBytes).toBe(stats.databaseBytes);
    expect(stats.databaseBytes % stats.pageSize).toBe(0);
    expect(diskOf(stats, "incident_versions")).toBeGreaterThan(0);
    // Full-text shadow tables are counted under the table they serve.
    expect(stats.tables.some((t) => t.name.startsWith("incident_search_"))).toBe(false);
    expect(stats.tables.find((t) => t.name === "incident_search")?.tableBytes).toBeGreaterThan(0);
    expect(stats.tables.find((t) => t.name === "captures")?.indexBytes).toBeGreaterThan(0);
  });

  it.skipIf(testDatabaseDialect === "sqlite")("sizes each table and its indexes by its relations (PostgreSQL), within the database's size", async () => {
    const db = await freshDatabase();
    await importRenames(db, "acme", 0, 12);
    const stats = await readStorageStats(db);
    const counted = stats.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(stats.databaseBytes);
    expect(diskOf(stats, "incident_versions")).toBeGreaterThan(0);
    expect(stats.tables.find((t) => t.name === "captures")?.indexBytes).toBeGreaterThan(0);
  });

  it("counts each table's rows and each vendor's rows, which sum to the tables'", async () => {
    const db = await freshDatabase();
    await importRenames(db, "acme", 0, 6);
    await importRenames(db, "globex", 0, 3);
    const stats = await readStorageStats(db);
    for (const table of ["captures", "capture_bodies", "incidents", "incident_versions", "incident_states"]) {
      expect(stats.tables.find((t) => t.name === table)?.rows, table).toBe(await countRows(db, table));
    }
    const sum = (part: (typeof VENDOR_PARTS)[number]) => stats.vendors.reduce((n, v) => n + v.parts[part].rows, 0);
    expect(sum("captures")).toBe(await countRows(db, "captures"));
    expect(sum("rawBodies")).toBe(await countRows(db, "capture_bodies"));
    expect(sum("versions")).toBe(await countRows(db, "incident_versions"));
    expect(sum("states")).toBe(await countRows(db, "incident_states"));
    expect(vendorOf(stats, "acme").parts.captures.rows).toBe(6);
    expect(vendorOf(stats, "globex").parts.captures.rows).toBe(3);
    // No body is shared, so the vendors' shares of the attributed tables make up those tables.
    const attributed = ["captures", "capture_bodies", "incidents", "incident_versions", "incident_states"].reduce((n, t) => n + diskOf(stats, t), 0);
    const shares = stats.vendors.reduce((n, v) => n + v.approxDiskBytes, 0);
    expect(Math.abs(shares - attributed)).toBeLessThanOrEqual(VENDOR_PARTS.length * stats.vendors.length);
  });

  it("sums the raw bytes recorded, per vendor and in all, and relates the database to them", async () => {
    const db = await freshDatabase();
    const acme = await importRenames(db, "acme", 0, 5);
    const globex = await importRenames(db, "globex", 0, 2);
    const stats = await readStorageStats(db);
    expect(vendorOf(stats, "acme").rawBytes).toBe(acme);
    expect(vendorOf(stats, "globex").rawBytes).toBe(globex);
    expect(stats.rawBytes).toBe(acme + globex);
    expect(stats.ratio).toBeCloseTo(stats.databaseBytes / (acme + globex), 10);
  });

  it("grows a vendor's figures when it imports more, and leaves the other vendor's as they were", async () => {
    const db = await freshDatabase();
    await importRenames(db, "acme", 0, 4);
    await importRenames(db, "globex", 0, 4);
    const before = await readStorageStats(db);
    await importRenames(db, "acme", 4, 10);
    const after = await readStorageStats(db);
    const [a0, a1] = [vendorOf(before, "acme"), vendorOf(after, "acme")];
    for (const part of ["captures", "rawBodies", "versions", "states"] as const) {
      expect(a1.parts[part].rows, part).toBeGreaterThan(a0.parts[part].rows);
      expect(a1.parts[part].bytes, part).toBeGreaterThan(a0.parts[part].bytes);
    }
    expect(a1.rawBytes).toBeGreaterThan(a0.rawBytes);
    expect(a1.parts.captures.rows).toBe(10);
    expect(vendorOf(after, "globex").parts).toEqual(vendorOf(before, "globex").parts);
    expect(after.rawBytes).toBeGreaterThan(before.rawBytes);
  });

  it("reports raw bodies that no capture refers to", async () => {
    const db = await freshDatabase();
    await importRenames(db, "acme", 0, 2);
    expect((await readStorageStats(db)).unreferencedBodies).toEqual({ rows: 0, bytes: 0 });
    await db.connection.prepare("INSERT INTO capture_bodies (id, hash, encoding, size, body) VALUES (7, ?, 'gzip', 3, ?)").run(randomBytes(32), Buffer.from("abcdef"));
    const stats = await readStorageStats(db);
    expect(stats.unreferencedBodies.rows).toBe(1);
    // id (7), the 32-byte hash, encoding, size, body, and the chain columns depth, chain_bytes and run (each 0: one byte each).
    expect(stats.unreferencedBodies.bytes).toBe(1 + 32 + "gzip".length + 1 + 6 + 3);
    expect(vendorOf(stats, "acme").parts.rawBodies.rows).toBe(2);
  });
});
