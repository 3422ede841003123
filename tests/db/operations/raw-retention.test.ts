import { platformNamed } from "@/tests/support/parsing";
import { vendorExportJson } from "@/tests/support/body-store";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listStoredCaptureIds, restoreCapture } from "@/db/history/capture-restore";
import { listRawRetention } from "@/db/queries/operator-status";
import { readStorageStats } from "@/db/queries/storage-stats";
import { pruneRawBodies, retentionHorizon, retentionRefusal, vendorRetention } from "@/db/operations/raw-retention";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { countRows, freshDatabase, queryRow, queryRows, runSql } from "@/tests/support/database";

const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "statuspage", "summary-maintenance-offset.json");
const DERIVED = ["incidents", "incident_versions", "incident_states", "incident_sources", "version_kinds"];

const summaryPlatform = () => platformNamed("statuspage-summary");

const exportJson = (db: RedlineDb, vendor: VendorRow): Promise<string> => vendorExportJson(db, vendor.slug);

function derivedCounts(db: RedlineDb): Promise<number[]> {
  return Promise.all(DERIVED.map((table) => countRows(db, table)));
}

const HEX_HASH = { sqlite: "SELECT lower(hex(hash)) AS hash FROM capture_bodies", postgres: "SELECT encode(hash, 'hex') AS hash FROM capture_bodies" };

async function bodyHashes(db: RedlineDb): Promise<Set<string>> {
  return new Set((await queryRows<{ hash: string }>(db, HEX_HASH)).map((r) => r.hash));
}

function captureRows(db: RedlineDb) {
  return queryRows<{ id: number; observedAt: string; hash: string; bodyHash: string | null; prunedAt: string | null }>(
    db,
    "SELECT id, observed_at AS observedAt, hash, CASE WHEN body_id IS NULL THEN NULL ELSE hash END AS bodyHash, body_pruned_at AS prunedAt FROM captures ORDER BY observed_at, id",
  );
}

/** Four edits of one summary.json; the third is the first again (stored once, where it was first stored). */
async function importEdits() {
  const db = await freshDatabase();
  const platform = summaryPlatform();
  const vendor = await ensureVendor(db, { slug: "acme", platform: platform.name });
  const base = fs.readFileSync(FIXTURE, "utf8");
  const b0 = Buffer.from(base);
  const b1 = Buffer.from(base.replace("Card payouts delayed", "Card payouts delayed in Europe"));
  const b2 = Buffer.from(base.replace("Card payouts delayed", "Card payouts delayed in Asia"));
  const bodies = [b0, b1, b0, b2];
  const snapshots = bodies.map((b, i) => ({ label: `s${i}`, observedAt: `2026-03-0${i + 1}T10:00:00.000Z`, source: "summary.json", read: () => b }));
  await importSnapshots(db, vendor, platform, snapshots);
  return { db, vendor, b0, b1, b2 };
}

describe("raw-body retention", () => {
  it("removes exactly the expired bodies, keeps one a kept capture shares, and leaves every derived row as it was", async () => {
    const { db, vendor, b0, b1, b2 } = await importEdits();
    const before = await exportJson(db, vendor);
    const counts = await derivedCounts(db);
    expect(await listRawRetention(db)).toEqual([]);
    expect(await bodyHashes(db)).toEqual(new Set([sha256Hex(b0), sha256Hex(b1), sha256Hex(b2)]));

    const result = await pruneRawBodies(db, { before: "2026-03-02T12:00:00.000Z", now: "2026-04-01T00:00:00.000Z" });

    expect(result.captures).toBe(2);
    // b0 is used again by the capture of 3 March: only b1 goes.
    expect(result.bodies).toBe(1);
    expect(await bodyHashes(db)).toEqual(new Set([sha256Hex(b0), sha256Hex(b2)]));
    const rows = await captureRows(db);
    expect(rows).toHaveLength(4);
    expect(rows.map((r) => r.prunedAt)).toEqual(["2026-04-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z", null, null]);
    expect(rows.map((r) => r.bodyHash)).toEqual([null, null, sha256Hex(b0), sha256Hex(b2)]);
    for (const id of (await listStoredCaptureIds(db, vendor.id))) {
      const restored = await restoreCapture(db, id);
      expect(sha256Hex(restored.body)).toBe(restored.hash);
    }
    expect(await exportJson(db, vendor)).toBe(before);
    expect(await derivedCounts(db)).toEqual(counts);
    expect(await vendorRetention(db, vendor.id)).toEqual({ keptFrom: "2026-03-03T10:00:00.000Z", prunedCaptures: 2, lastPrunedAt: "2026-04-01T00:00:00.000Z" });

    expect(await listRawRetention(db)).toEqual([
      { vendorSlug: "acme", name: vendor.name, keptFrom: "2026-03-03T10:00:00.000Z", prunedCaptures: 2, lastPrunedAt: "2026-04-01T00:00:00.000Z" },
    ]);
    const stats = await readStorageStats(db);
    const sizes = (await queryRows<{ size: number }>(db, "SELECT size FROM captures ORDER BY observed_at")).map((r) => r.size);
    expect(stats.prunedRaw).toEqual({ captures: 2, bytes: (sizes[0] ?? 0) + (sizes[1] ?? 0) });
    expect(stats.rawBytes).toBe(sizes.reduce((a, b) => a + b, 0));

    // Run again: nothing more is expired, nothing changes.
    expect(await pruneRawBodies(db, { before: "2026-03-02T12:00:00.000Z" })).toEqual({ captures: 0, bodies: 0, rebased: 0 });
  });

  it("keeps each source's latest body whatever its age: it is what the source still serves", async () => {
    const { db, vendor, b2 } = await importEdits();
    const result = await pruneRawBodies(db, { before: "2030-01-01T00:00:00.000Z" });
    expect(result.captures).toBe(3);
    expect(await bodyHashes(db)).toEqual(new Set([sha256Hex(b2)]));
    const [kept] = await listStoredCaptureIds(db, vendor.id);
    expect((await restoreCapture(db, kept ?? 0)).body.equals(b2)).toBe(true);
  });

  it("stores whole a kept body whose delta base was deleted, and it still restores to its hash", async () => {
    const { db, vendor, b2 } = await importEdits();
    const base = await queryRow<{ baseId: number | null }>(
      db,
      { sqlite: "SELECT base_id AS baseId FROM capture_bodies WHERE hash = unhex(?)", postgres: "SELECT base_id AS baseId FROM capture_bodies WHERE hash = decode(?, 'hex')" },
      sha256Hex(b2),
    );
    expect(base?.baseId).not.toBeNull();
    // Only the first vendor's captures before 3 March go; the chain under b2 loses b1.
    const result = await pruneRawBodies(db, { before: "2026-03-02T12:00:00.000Z", vendorId: vendor.id, batch: 1 });
    expect(result.captures).toBe(2);
    for (const id of (await listStoredCaptureIds(db, vendor.id))) expect(sha256Hex((await restoreCapture(db, id)).body)).toBe((await restoreCapture(db, id)).hash);
    const bases = await queryRows<{ id: number; baseId: number | null }>(db, "SELECT id, base_id AS baseId FROM capture_bodies");
    const stored = new Set(bases.map((b) => b.id));
    for (const b of bases) if (b.baseId !== null) expect(stored.has(b.baseId)).toBe(true);
  });

  it("leaves another vendor's captures alone when pruning one vendor", async () => {
    const { db, vendor } = await importEdits();
    const platform = summaryPlatform();
    const other = await ensureVendor(db, { slug: "other", platform: platform.name });
    const body = Buffer.from(fs.readFileSync(FIXTURE, "utf8").replace("Card payouts delayed", "Other delay"));
    const later = Buffer.from(fs.readFileSync(FIXTURE, "utf8").replace("Card payouts delayed", "Other delay, again"));
    await importSnapshots(db, other, platform, [body, later].map((b, i) => ({ label: `o${i}`, observedAt: `2026-02-0${i + 1}T10:00:00.000Z`, source: "summary.json", read: () => b })));
    await pruneRawBodies(db, { before: "2026-03-02T12:00:00.000Z", vendorId: vendor.id });
    expect(await listStoredCaptureIds(db, other.id)).toHaveLength(2);
    expect(await retentionRefusal(db, other.id, null)).toBeNull();
    expect(await retentionRefusal(db, vendor.id, null)).toMatch(/^retention: .*up to 2026-03-02T10:00:00.000Z.*kept from 2026-03-03T10:00:00.000Z/);
    // A replay that starts after the pruned captures needs none of their bodies.
    expect(await retentionRefusal(db, vendor.id, "2026-03-03T10:00:00.000Z")).toBeNull();
  });

  it("computes the horizon as whole days before now", () => {
    expect(retentionHorizon(30, new Date("2026-03-31T12:00:00.000Z"))).toBe("2026-03-01T12:00:00.000Z");
  });
});

describeCorpus("raw-body retention on a real history", () => {
  it("prunes the older half of Trello's summary.json: export identical, every kept capture restores to its hash", async () => {
    const db = await freshDatabase();
    const platform = summaryPlatform();
    const vendor = await ensureVendor(db, { slug: "trello", platform: platform.name });
    const { snapshots } = listSnapshotFolder(corpusPath("statuspage-summary-trello-nonutc"));
    await importSnapshots(db, vendor, platform, snapshots);
    const exported = await exportJson(db, vendor);
    const counts = await derivedCounts(db);
    const rows = (await captureRows(db)).filter((r) => r.bodyHash !== null);
    const horizon = rows[Math.floor(rows.length / 2)]?.observedAt ?? "";
    const lastObserved = new Map(
      (await queryRows<{ id: number; last: string }>(db, "SELECT id, coalesce(last_observed_at, observed_at) AS last FROM captures")).map((r) => [r.id, r.last]),
    );
    const expected = rows.filter((r) => (lastObserved.get(r.id) ?? "") < horizon && r.id !== rows[rows.length - 1]?.id).map((r) => r.id);
    expect(expected.length).toBeGreaterThan(50);

    const result = await pruneRawBodies(db, { before: horizon, batch: 37 });

    expect(result.captures).toBe(expected.length);
    const pruned = (await captureRows(db)).filter((r) => r.prunedAt !== null).map((r) => r.id);
    expect(pruned.sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    const used = new Set((await captureRows(db)).flatMap((r) => (r.bodyHash === null ? [] : [r.bodyHash])));
    expect(await bodyHashes(db)).toEqual(used);
    const kept = await listStoredCaptureIds(db, vendor.id);
    expect(kept.length).toBe(rows.length - expected.length);
    for (const id of kept) {
      const { body, hash } = await restoreCapture(db, id);
      expect(sha256Hex(body)).toBe(hash);
    }
    expect(await exportJson(db, vendor)).toBe(exported);
    expect(await derivedCounts(db)).toEqual(counts);
  });
});

describe("raw-body retention beside a rebuild", () => {
  it("leaves a vendor being rebuilt aside alone until its rebuild is over", async () => {
    const { db, vendor } = await importEdits();
    const job = await queryRow<{ id: number }>(
      db,
      "INSERT INTO derivation_jobs (vendor_id, reason, status, created_at, updated_at) VALUES (?, 'requested', 'building', ?, ?) RETURNING id",
      vendor.id,
      "2026-04-01T00:00:00.000Z",
      "2026-04-01T00:00:00.000Z",
    );
    expect((await pruneRawBodies(db, { before: "2026-03-02T12:00:00.000Z" })).captures).toBe(0);
    await runSql(db, "UPDATE derivation_jobs SET status = 'done' WHERE id = ?", job?.id ?? 0);
    expect((await pruneRawBodies(db, { before: "2026-03-02T12:00:00.000Z" })).captures).toBe(2);
  });
});
