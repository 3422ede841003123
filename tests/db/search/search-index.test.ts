import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDatabase } from "@/db/client";
import { listRecentJobs, queueJob } from "@/db/operations/derivation-jobs";
import { pruneRawBodies } from "@/db/operations/raw-retention";
import { packSearchText, unpackSearchText } from "@/db/search/search-text";
import { ensureVendor, removeVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { createApi } from "@/server/api/api";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { countRows } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { platformNamed } from "@/tests/support/parsing";
import { checkSearchIndex, matchCount } from "@/tests/support/search-layout";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const SUMMARY_FIXTURE = fs.readFileSync(path.join(__dirname, "..", "..", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

async function feed() {
  const db = openDatabase(":memory:");
  const platform = makeTestPlatform({ kind: "active" });
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
  let minute = 0;
  const capture = (incidents: Parameters<typeof snapshotBody>[0]) => {
    minute += 10;
    const observedAt = new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString();
    return ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt, body: snapshotBody(incidents) });
  };
  return { db, vendor, capture };
}

describe("the search index over compressed text (SQLite)", () => {
  it("keeps no plain copy of the text: one compressed row per incident that decodes to what is indexed", async () => {
    const { db, capture } = await feed();
    await capture([makeIncident({ postmortem: { body: "A cache stampede.", publishedAt: null } })]);
    const tables = db.$client.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE name LIKE 'incident_search%' ORDER BY name").all().map((r) => r.name);
    expect(tables).not.toContain("incident_search_content");
    expect(tables).toContain("incident_search_text");
    const rows = db.$client.prepare<[], { body: Buffer }>("SELECT body FROM incident_search_text").all();
    expect(rows).toHaveLength(1);
    expect(unpackSearchText(rows[0]?.body ?? Buffer.alloc(0))).toEqual(["Elevated API errors", "We are investigating elevated error rates on the API.", "A cache stampede."]);
    expect(db.$client.prepare("SELECT title, updates, postmortem FROM incident_search WHERE incident_search MATCH 'stampede'").all()).toEqual([
      { title: "Elevated API errors", updates: "We are investigating elevated error rates on the API.", postmortem: "A cache stampede." },
    ]);
    checkSearchIndex(db);
  });

  it("finds an incident whose text changed by its new words and no longer by its old ones", async () => {
    const { db, capture } = await feed();
    await capture([makeIncident()]);
    expect(matchCount(db, "elevated")).toBe(1);
    await capture([makeIncident({ title: "Quietly renamed outage", updates: [makeUpdate({ body: "Payments are failing in one region." })] })]);
    expect(matchCount(db, "quietly")).toBe(1);
    expect(matchCount(db, "payments AND region")).toBe(1);
    expect(matchCount(db, "elevated")).toBe(0);
    expect(matchCount(db, "investigating")).toBe(0);
    checkSearchIndex(db);
  });

  it("keeps the index in step when the text row is updated in place", async () => {
    const { db, capture } = await feed();
    await capture([makeIncident()]);
    db.$client.prepare("UPDATE incident_search_text SET body = ?").run(packSearchText(["Rewritten headline", "Entirely different words.", ""]));
    expect(matchCount(db, "rewritten AND different")).toBe(1);
    expect(matchCount(db, "elevated OR investigating")).toBe(0);
    checkSearchIndex(db);
  });

  it("fails the integrity check when the index is written past its text (what the checks here would catch)", async () => {
    const { db, capture } = await feed();
    await capture([makeIncident()]);
    const id = db.$client.prepare<[], { id: number }>("SELECT id FROM incidents").get()?.id ?? 0;
    db.$client.prepare("INSERT INTO incident_search (rowid, title, updates, postmortem) VALUES (?, 'stale words', '', '')").run(id + 1);
    expect(() => checkSearchIndex(db)).toThrow(/malformed|corrupt/i);
  });

  it("leaves nothing of a purged vendor in the index and keeps the others searchable", async () => {
    const db = openDatabase(":memory:");
    await archiveAcmeLifecycle(db);
    const platform = makeTestPlatform({ kind: "active" });
    const beta = await ensureVendor(db, { slug: "beta", name: "Beta", platform: platform.name });
    await ingestSnapshot(db, { vendor: beta, platform, source: "feed.json", observedAt: "2026-03-01T10:00:00.000Z", body: snapshotBody([makeIncident({ title: "Beta zeppelin outage" })]) });
    const acmeIncidents = db.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM incidents i JOIN vendors d ON d.id = i.vendor_id WHERE d.slug = 'acme'").get()?.n ?? 0;
    expect(acmeIncidents).toBeGreaterThan(1);
    expect(await countRows(db, "incident_search_text")).toBe(acmeIncidents + 1);
    await removeVendor(db, "acme", true);
    expect(await countRows(db, "incident_search_text")).toBe(1);
    expect(await countRows(db, "incident_search")).toBe(1);
    expect(matchCount(db, "zeppelin")).toBe(1);
    expect(db.$client.prepare("SELECT count(*) AS n FROM incident_search_text s LEFT JOIN incidents i ON i.id = s.incident_id WHERE i.id IS NULL").get()).toEqual({ n: 0 });
    checkSearchIndex(db);
  });
});

describe("the search index when the operator API purges a vendor (SQLite)", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("DELETE /api/v1/vendors/acme?purge=true takes acme's incidents out of the index and leaves it consistent", async () => {
    const token = "operator-token-for-search-tests-0123";
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", token);
    const db = openDatabase(":memory:");
    await archiveAcmeLifecycle(db);
    const words = db.$client.prepare<[], { title: string }>("SELECT title FROM incidents").all().flatMap((r) => r.title.toLowerCase().match(/\p{L}{4,}/gu) ?? []);
    expect(words.length).toBeGreaterThan(0);
    const api = createApi(() => db);
    const request = new Request("http://redline.test/api/v1/vendors/acme?purge=true", { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    const response = await api.removeVendor(request, { params: Promise.resolve({ slug: "acme" }) });
    expect(await response.json()).toMatchObject({ slug: "acme", purged: true });
    expect(await countRows(db, "incident_search_text")).toBe(0);
    expect(matchCount(db, words.map((w) => `"${w}"`).join(" OR "))).toBe(0);
    checkSearchIndex(db);
  });
});

describe("the search index through a rebuild of the history (SQLite)", () => {
  async function renamedSix(slug: string) {
    const db = openDatabase(":memory:");
    const platform = platformNamed("statuspage-summary");
    const vendor = await ensureVendor(db, { slug, platform: platform.name });
    const snapshots = [0, 1, 2, 3, 4, 5].map((i) => {
      const body = Buffer.from(SUMMARY_FIXTURE.replace("Card payouts delayed", `Card payouts delayed zz${"q".repeat(i)}`));
      return { label: `s${i}`, observedAt: `2026-03-0${i + 1}T10:00:00.000Z`, source: "summary.json", read: () => body };
    });
    await importSnapshots(db, vendor, platform, snapshots);
    return { db, vendor };
  }

  it("swaps a whole rebuilt history in with the index consistent and on the last title", async () => {
    const { db, vendor } = await renamedSix("kept");
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db))[0]?.status).toBe("done");
    expect(matchCount(db, "zzqqqqq")).toBe(1);
    expect(matchCount(db, "zzqqqq")).toBe(0);
    checkSearchIndex(db);
  });

  it("seeds a pruned vendor's rebuild from its derived history, index rows included, and stays consistent", async () => {
    const { db, vendor } = await renamedSix("pruned");
    expect((await pruneRawBodies(db, { before: "2026-03-03T12:00:00.000Z" })).captures).toBe(3);
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db))[0]?.status).toBe("done");
    expect(matchCount(db, "zzqqqqq")).toBe(1);
    expect(matchCount(db, "zzqq OR zzqqq OR zzqqqq")).toBe(0);
    checkSearchIndex(db);
  });
});
