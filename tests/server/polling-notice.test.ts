import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { countPollOutcomes } from "@/db/queries/poll-outcomes";
import { savePollState } from "@/db/operations/poll-state";
import { addVendor, type VendorRow } from "@/db/settings/vendors";
import { paths } from "@/lib/incident-key";
import { renderArchivePage } from "@/server/archive-pages";
import { pollingNoticeProbe } from "@/server/web-server";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const NOW = new Date("2026-05-01T00:00:00.000Z");
const BANNER = 'id="polling-notice"';
let db: RedlineDb;
let polled: VendorRow[];

async function settle(vendor: VendorRow, outcome: "ok" | "failed", at: string) {
  const error = outcome === "ok" ? null : `${vendor.slug}: https://status.${vendor.slug}.example/api/v2/summary.json: getaddrinfo ENOTFOUND status.${vendor.slug}.example`;
  await savePollState(db, { vendorId: vendor.id, nextPollAt: at, lastPollAt: at, lastOutcome: outcome, lastError: error, consecutiveFailures: outcome === "ok" ? 0 : 1, backoffSeconds: 0 });
}

const page = async () => (await renderArchivePage(db, paths.incident("acme", "k3x9"), [], NOW)) ?? "";

beforeAll(async () => {
  db = await freshDatabase();
  // Imported, not polled: no poll of it can fail.
  await archiveAcmeLifecycle(db);
  polled = [];
  for (const slug of ["globex", "initech"]) {
    polled.push(await addVendor(db, { slug, name: slug, platform: "statuspage-summary", url: `https://status.${slug}.example/api/v2/summary.json` }, "user"));
  }
});

describe(`the banner saying every poll fails (${testDatabaseDialect})`, () => {
  it("is not shown before any poll, nor while one vendor's latest poll succeeded", async () => {
    expect(await countPollOutcomes(db)).toEqual({ vendors: 2, ok: 0, failed: 0, lastError: null });
    expect(await page()).not.toContain(BANNER);
    const [globex, initech] = polled;
    if (!globex || !initech) throw new Error("vendors not added");
    await settle(globex, "failed", "2026-05-01T00:00:01.000Z");
    await settle(initech, "ok", "2026-05-01T00:00:02.000Z");
    expect(await page()).not.toContain(BANNER);
  });

  it("is shown once every vendor's latest poll failed, naming the last error, and goes when a poll succeeds", async () => {
    const [globex, initech] = polled;
    if (!globex || !initech) throw new Error("vendors not added");
    await settle(globex, "failed", "2026-05-01T00:00:03.000Z");
    await settle(initech, "failed", "2026-05-01T00:00:04.000Z");
    expect(await countPollOutcomes(db)).toMatchObject({ vendors: 2, ok: 0, failed: 2, lastError: expect.stringContaining("initech") });
    const html = await page();
    expect(html).toContain(BANNER);
    expect(html).toContain("Redline cannot reach any vendor: the last polls of all 2 vendors failed");
    expect(html).toContain("getaddrinfo ENOTFOUND status.initech.example");
    await settle(globex, "ok", "2026-05-01T00:00:05.000Z");
    expect(await page()).not.toContain(BANNER);
  });
});

describe("pollingNoticeProbe", () => {
  it("reads the pollers' outcomes at most once a second, and again after that", async () => {
    let clock = 0;
    let reads = 0;
    let notice: string | null = "every poll fails";
    const probe = pollingNoticeProbe(async () => {
      reads += 1;
      return notice;
    }, 1_000, () => clock);
    expect(await Promise.all([probe(), probe()])).toEqual([true, true]);
    notice = null;
    clock = 999;
    expect(await probe()).toBe(true);
    expect(reads).toBe(1);
    clock = 1_000;
    expect(await probe()).toBe(false);
    expect(reads).toBe(2);
  });

  it("does not keep a failed read", async () => {
    let fail = true;
    const probe = pollingNoticeProbe(async () => {
      if (fail) throw new Error("database is locked");
      return null;
    }, 1_000, () => 0);
    await expect(probe()).rejects.toThrow("database is locked");
    fail = false;
    expect(await probe()).toBe(false);
  });
});
