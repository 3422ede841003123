import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listStoredCaptureIds } from "@/db/history/capture-restore";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { applyRawRetention, RawRetentionTimer } from "@/scrapers/poller/raw-retention-timer";
import { freshDatabase } from "@/tests/support/database";

const FIXTURE = fs.readFileSync(path.join(__dirname, "..", "..", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

/** Five edits, the first four `daysAgo` days before now, the last an hour ago. */
async function history(daysAgo: number) {
  const db = await freshDatabase();
  const platform = getPlatform("statuspage-summary");
  if (!platform) throw new Error("no statuspage-summary platform");
  const vendor = await ensureVendor(db, { slug: "acme", platform: platform.name });
  const now = Date.now();
  const snapshots = [0, 1, 2, 3, 4].map((i) => {
    const body = Buffer.from(FIXTURE.replace("Card payouts delayed", `Card payouts delayed (${i})`));
    const at = i < 4 ? now - daysAgo * 86_400_000 + i * 60_000 : now - 3_600_000;
    return { label: `s${i}`, observedAt: new Date(at).toISOString(), source: "summary.json", read: () => body };
  });
  await importSnapshots(db, vendor, platform, snapshots);
  return { db, vendor };
}

describe("the poller's retention", () => {
  it("prunes what is older than the period, and nothing within it", async () => {
    const { db, vendor } = await history(10);
    expect(await applyRawRetention(db, 11)).toEqual({ captures: 0, bodies: 0, rebased: 0 });
    expect((await applyRawRetention(db, 9)).captures).toBe(4);
    expect(await listStoredCaptureIds(db, vendor.id)).toHaveLength(1);
  });

  it("runs at start, logs what it removed, and stops cleanly", async () => {
    const { db, vendor } = await history(40);
    const lines: string[] = [];
    let logged: () => void = () => {};
    const seen = new Promise<void>((resolve) => (logged = resolve));
    const timer = new RawRetentionTimer(db, 30, (line) => {
      lines.push(line);
      logged();
    });
    timer.start();
    await seen;
    await timer.stop();
    expect(lines).toEqual(["retention: raw bodies older than 30 days: 4 captures lost their body, 4 bodies deleted, 1 stored whole again"]);
    expect(await listStoredCaptureIds(db, vendor.id)).toHaveLength(1);
  });
});
