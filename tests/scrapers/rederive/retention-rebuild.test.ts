import { platformNamed } from "@/tests/support/parsing";
import { vendorExportJson } from "@/tests/support/body-store";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listRecentJobs, queueJob } from "@/db/operations/derivation-jobs";
import { pruneRawBodies } from "@/db/operations/raw-retention";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { unpackVersionText, withVersionText } from "@/db/history/version-content";
import { DERIVATION_VERSION } from "@/lib/derive/derivation-version";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { queueStaleRebuilds, runPendingJobs } from "@/scrapers/rederive/job-runner";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { countRows, freshDatabase, queryRow, queryRows, runSql } from "@/tests/support/database";

const FIXTURE = fs.readFileSync(path.join(__dirname, "..", "..", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

const summaryPlatform = () => platformNamed("statuspage-summary");

const exportJson = (db: RedlineDb, vendor: VendorRow): Promise<string> => vendorExportJson(db, vendor.slug);

/** Six edits of one incident, a day apart. */
async function history(slug: string) {
  const db = await freshDatabase();
  const platform = summaryPlatform();
  const vendor = await ensureVendor(db, { slug, platform: platform.name });
  const snapshots = [0, 1, 2, 3, 4, 5].map((i) => {
    const body = Buffer.from(FIXTURE.replace("Card payouts delayed", `Card payouts delayed (${i})`));
    return { label: `s${i}`, observedAt: `2026-03-0${i + 1}T10:00:00.000Z`, source: "summary.json", read: () => body };
  });
  await importSnapshots(db, vendor, platform, snapshots);
  return { db, vendor };
}

const staleParsers = (db: RedlineDb, slug: string) =>
  runSql(db, "UPDATE vendors SET derived_with = ? WHERE slug = ?", JSON.stringify({ "@derive": DERIVATION_VERSION, "statuspage-summary": 0 }), slug);

/** Replace the summary of every version observed from `from` on with "marked"; how many were. */
async function markSummaries(db: RedlineDb, from = ""): Promise<number> {
  const rows = await queryRows<{ id: number; content: Buffer }>(db, "SELECT id, content FROM incident_versions WHERE observed_at >= ?", from);
  for (const { id, content } of rows) {
    await runSql(db, "UPDATE incident_versions SET content = ? WHERE id = ?", withVersionText(content, { ...unpackVersionText(content), summary: "marked" }), id);
  }
  return rows.length;
}

describe("re-derivation after retention removed raw bodies", () => {
  it("rebuilds a vendor with every raw body kept to the same export (the control)", async () => {
    const { db, vendor } = await history("kept");
    const before = await exportJson(db, vendor);
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db))[0]?.status).toBe("done");
    expect(await exportJson(db, vendor)).toBe(before);
  });

  it("rebuilds a pruned vendor from its first kept capture: the history before stays, the export is the same", async () => {
    const { db, vendor } = await history("pruned");
    const before = await exportJson(db, vendor);
    const versions = await countRows(db, "incident_versions");
    expect((await pruneRawBodies(db, { before: "2026-03-03T12:00:00.000Z" })).captures).toBe(3);
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db))[0]?.status).toBe("done");
    expect(await exportJson(db, vendor)).toBe(before);
    expect(await countRows(db, "incident_versions")).toBe(versions);
  });

  it("derives again only what follows the pruned captures, and keeps what was derived before them", async () => {
    const { db, vendor } = await history("upgraded");
    const before = await exportJson(db, vendor);
    await pruneRawBodies(db, { before: "2026-03-03T12:00:00.000Z" });
    // Mark every version's summary: a rebuild rewrites those it derives again, and only those.
    await markSummaries(db);
    await staleParsers(db, vendor.slug);
    expect(await queueStaleRebuilds(db)).toBe(1);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db)).map((j) => [j.reason, j.status])).toEqual([["parser-upgrade", "done"]]);
    const summaries = (await queryRows<{ observedAt: string; content: Buffer }>(db, "SELECT observed_at AS observedAt, content FROM incident_versions ORDER BY observed_at")).map((v) => ({
      observedAt: v.observedAt,
      summary: unpackVersionText(v.content).summary,
    }));
    const kept = summaries.filter((v) => v.observedAt < "2026-03-04T10:00:00.000Z");
    const rebuilt = summaries.filter((v) => v.observedAt >= "2026-03-04T10:00:00.000Z");
    expect(kept.length).toBeGreaterThan(0);
    expect(rebuilt.length).toBeGreaterThan(0);
    expect(kept.every((v) => v.summary === "marked")).toBe(true);
    expect(rebuilt.every((v) => v.summary !== "marked")).toBe(true);
    // The history itself is what it was; and the vendor is no longer stale.
    await markSummaries(db);
    const remarked = await exportJson(db, vendor);
    expect(await queueStaleRebuilds(db)).toBe(0);
    const withoutSummaries = (json: string) => json.replace(/"summary": "(?:[^"\\]|\\.)*"/g, "");
    expect(withoutSummaries(remarked)).not.toBe(remarked);
    expect(withoutSummaries(remarked)).toBe(withoutSummaries(before));
  });

  it("refuses a late capture that falls among the pruned ones, and records why", async () => {
    const { db, vendor } = await history("early");
    const before = await exportJson(db, vendor);
    await pruneRawBodies(db, { before: "2026-03-03T12:00:00.000Z" });
    const body = Buffer.from(FIXTURE.replace("Card payouts delayed", "Card payouts delayed (early)"));
    await importSnapshots(db, vendor, summaryPlatform(), [{ label: "early", observedAt: "2026-03-02T12:00:00.000Z", source: "summary.json", read: () => body }]);
    // The import runs the job it queued; running again finds nothing left to do.
    expect(await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 })).toBe(0);
    const [job] = await listRecentJobs(db);
    expect(job?.reason).toBe("late-capture");
    expect(job?.status).toBe("failed");
    expect(job?.error).toMatch(/^retention: the raw bodies of its captures up to 2026-03-03T10:00:00.000Z were deleted.*its history stays as it was derived/);
    expect(await exportJson(db, vendor)).toBe(before);
  });

  it("still replays a late capture that falls after the pruned period", async () => {
    const { db, vendor } = await history("late");
    await pruneRawBodies(db, { before: "2026-03-03T12:00:00.000Z" });
    const versions = await countRows(db, "incident_versions");
    const platform = summaryPlatform();
    const body = Buffer.from(FIXTURE.replace("Card payouts delayed", "Card payouts delayed (late)"));
    await importSnapshots(db, vendor, platform, [{ label: "late", observedAt: "2026-03-05T12:00:00.000Z", source: "summary.json", read: () => body }]);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    const [job] = await listRecentJobs(db);
    expect(job?.reason).toBe("late-capture");
    expect(job?.status).toBe("done");
    // The late title is a version between the 5th's and the 6th's, and the 6th's title is a change again after it.
    const applied = (await queryRows<{ observedAt: string }>(db, "SELECT observed_at AS observedAt FROM incident_versions ORDER BY observed_at")).map((r) => r.observedAt);
    expect(applied).toContain("2026-03-05T12:00:00.000Z");
    expect(await countRows(db, "incident_versions")).toBe(versions + 1);
  });
});

describeCorpus("re-derivation of a real history after retention", () => {
  it("rebuilds Jira's summary.json with its older half pruned to the same export", async () => {
    const db = await freshDatabase();
    const platform = summaryPlatform();
    const vendor = await ensureVendor(db, { slug: "jira", platform: platform.name });
    await importSnapshots(db, vendor, platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
    const before = await exportJson(db, vendor);
    const middle = await queryRow<{ observedAt: string }>(db, "SELECT observed_at AS observedAt FROM captures ORDER BY observed_at LIMIT 1 OFFSET 150");
    expect((await pruneRawBodies(db, { before: middle?.observedAt ?? "" })).captures).toBeGreaterThan(100);
    // What is derived again is worded afresh: mark it, and the rebuild must put it back.
    expect(await markSummaries(db, middle?.observedAt ?? "")).toBeGreaterThan(0);
    expect(await exportJson(db, vendor)).not.toBe(before);
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db))[0]?.status).toBe("done");
    expect(await exportJson(db, vendor)).toBe(before);
  });
});
