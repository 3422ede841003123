import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { queueJob } from "@/db/operations/derivation-jobs";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { freshDatabase, queryRows } from "@/tests/support/database";
import { readVersionRows } from "@/tests/support/version-rows";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-shared-scratch-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const PAGE = { id: "p1", name: "Acme", url: "https://status.acme.test" };

function incident(title: string, status: string, updates: string[]) {
  return {
    id: "inc1", name: title, status, impact: "minor", shortlink: "https://stspg.io/inc1",
    created_at: "2026-03-01T10:00:00.000Z", started_at: "2026-03-01T10:00:00.000Z", resolved_at: status === "resolved" ? "2026-03-01T11:00:00.000Z" : null,
    components: [{ id: "api", name: "API" }],
    incident_updates: updates.map((body, i) => ({ id: `u${i + 1}`, status, body, created_at: `2026-03-01T10:${String(10 + i * 10).padStart(2, "0")}:00.000Z` })),
  };
}

/** One vendor "acme" whose incident reads `title`, polled three times as it is updated and resolved. */
async function archive(title: string): Promise<{ db: RedlineDb; vendor: VendorRow }> {
  const db = await freshDatabase();
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: "statuspage" });
  const platform = getPlatform("statuspage-incidents");
  if (!platform) throw new Error("no statuspage-incidents platform");
  const polls = [
    incident(title, "investigating", ["Looking into it."]),
    incident(title, "identified", ["Looking into it.", `${title}: found.`]),
    incident(title, "resolved", ["Looking into it.", `${title}: found.`, "Fixed."]),
  ];
  for (const [i, body] of polls.entries()) {
    const observedAt = `2026-03-01T1${i}:30:00.000Z`;
    await ingestSnapshot(db, { vendor, platform, source: "https://status.acme.test/api/v2/incidents.json", observedAt, body: Buffer.from(JSON.stringify({ page: PAGE, incidents: [body] })) });
  }
  return { db, vendor };
}

async function history(db: RedlineDb): Promise<string[]> {
  const titles = new Map((await queryRows<{ providerId: string; title: string }>(db, "SELECT provider_id AS providerId, title FROM incidents")).map((r) => [r.providerId, r.title]));
  return (await readVersionRows(db))
    .sort((x, y) => x.seq - y.seq)
    .map((v) => `${titles.get(v.providerId) ?? ""} #${v.seq} ${v.observedAt} ${JSON.stringify(v.kinds)} ${JSON.stringify(v.changes)}`);
}

it("rebuilds two databases' histories side by side in one scratch folder, each from its own captures", async () => {
  const a = await archive("Elevated API errors");
  const b = await archive("Slow dashboard");
  const expected = [await history(a.db), await history(b.db)];
  expect(expected[0]).toHaveLength(3);
  expect(expected[0]).not.toEqual(expected[1]);
  // The same vendor slug and the same job number in both: what two copies of an archive in one folder have.
  for (const { db, vendor } of [a, b]) await queueJob(db, vendor.id, "parser-upgrade", null);
  const ran = await Promise.all([a, b].map(({ db, vendor }) => runPendingJobs(db, { vendorId: vendor.id, scratchDir: dir })));
  expect(ran).toEqual([1, 1]);
  const statusOf = (db: RedlineDb) => queryRows<{ status: string; error: string | null }>(db, "SELECT status, error FROM derivation_jobs");
  expect([await statusOf(a.db), await statusOf(b.db)]).toEqual([[{ status: "done", error: null }], [{ status: "done", error: null }]]);
  expect([await history(a.db), await history(b.db)]).toEqual(expected);
  expect(fs.readdirSync(dir)).toEqual([]);
});
