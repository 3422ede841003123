import { platformNamed } from "@/tests/support/parsing";
import { encodeFull } from "@/db/history/body-codec";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CaptureRestoreError, listStoredCaptureIds, restoreCapture } from "@/db/history/capture-restore";
import { ensureVendor } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { freshDatabase, queryRow, runSql } from "@/tests/support/database";

const FIXTURE = path.join(__dirname, "..", "..", "fixtures", "statuspage", "summary-maintenance-offset.json");

const summaryPlatform = () => platformNamed("statuspage-summary");

/** Three bodies of one endpoint, one of them empty (a failed fetch keeps no body). */
async function importThree() {
  const db = await freshDatabase();
  const platform = summaryPlatform();
  const vendor = await ensureVendor(db, { slug: "acme", platform: platform.name });
  const body = fs.readFileSync(FIXTURE);
  const edited = Buffer.from(body.toString("utf8").replace("Card payouts delayed", "Card payouts delayed in Europe"));
  const bodies = [body, Buffer.alloc(0), edited];
  const snapshots = bodies.map((b, i) => ({ label: `s${i}`, observedAt: `2026-03-01T10:0${i}:00.000Z`, source: "summary.json", read: () => b }));
  await importSnapshots(db, vendor, platform, snapshots);
  return { db, vendor, body, edited };
}

describe("restoring a capture's raw body", () => {
  it("gives back each kept body byte for byte, in capture order, and lists no capture that kept none", async () => {
    const { db, vendor, body, edited } = await importThree();
    const ids = await listStoredCaptureIds(db, vendor.id);
    expect(ids).toHaveLength(2);
    const restored = await Promise.all(ids.map((id) => restoreCapture(db, id)));
    expect(restored.map((r) => r.body.equals(body))).toEqual([true, false]);
    expect(restored[1]?.body.equals(edited)).toBe(true);
    expect(restored.map((r) => r.hash)).toEqual([sha256Hex(body), sha256Hex(edited)]);
  });

  it("refuses a capture that kept no body, and one that does not exist", async () => {
    const { db, vendor } = await importThree();
    const failed = await queryRow<{ id: number }>(db, "SELECT id FROM captures WHERE vendor_id = ? AND outcome = 'failed'", vendor.id);
    expect(failed).toBeDefined();
    await expect(restoreCapture(db, failed?.id ?? 0)).rejects.toThrow(/kept no body/);
    await expect(restoreCapture(db, 999_999)).rejects.toThrow(CaptureRestoreError);
  });

  it("refuses a stored body that no longer matches the capture's recorded hash", async () => {
    const { db, vendor, body } = await importThree();
    const [first] = await listStoredCaptureIds(db, vendor.id);
    // Replace the first capture's stored body by a whole, well-formed body of other content.
    await runSql(
      db,
      {
        sqlite: "UPDATE capture_bodies SET encoding = 'zstd', base_id = NULL, depth = 0, body = ? WHERE hash = unhex(?)",
        postgres: "UPDATE capture_bodies SET encoding = 'zstd', base_id = NULL, depth = 0, body = ? WHERE hash = decode(?, 'hex')",
      },
      encodeFull(Buffer.from('{"page":{},"incidents":[]}')),
      sha256Hex(body),
    );
    await expect(restoreCapture(db, first ?? 0)).rejects.toThrow(/restore capture \d+: .*sha256 [0-9a-f]{64}, not its own/);
  });
});

describeCorpus("restoring every capture of a real history", () => {
  it("gives every kept capture of Trello's summary.json back with its recorded hash", async () => {
    const db = await freshDatabase();
    const platform = summaryPlatform();
    const vendor = await ensureVendor(db, { slug: "trello", platform: platform.name });
    const { snapshots } = listSnapshotFolder(corpusPath("statuspage-summary-trello-nonutc"));
    await importSnapshots(db, vendor, platform, snapshots);
    const ids = await listStoredCaptureIds(db, vendor.id);
    const nonEmpty = snapshots.filter((s) => s.read().byteLength > 0);
    expect(ids).toHaveLength(nonEmpty.length);
    const files = new Set(nonEmpty.map((s) => sha256Hex(s.read())));
    for (const id of ids) {
      const { body, hash } = await restoreCapture(db, id);
      expect(sha256Hex(body)).toBe(hash);
      expect(files.has(hash)).toBe(true);
    }
  });
});
