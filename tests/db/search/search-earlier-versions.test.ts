import type { RedlineDb } from "@/db/client";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { listRecentJobs, queueJob } from "@/db/operations/derivation-jobs";
import { SNIPPET_CLOSE, SNIPPET_OPEN, searchIncidents, toFtsQuery } from "@/db/queries/search";
import { ensureVendor, removeVendor } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { importSnapshots } from "@/scrapers/ingest/import-snapshots";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { countRows, freshDatabase } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { platformNamed } from "@/tests/support/parsing";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const SUMMARY_FIXTURE = fs.readFileSync(path.join(__dirname, "..", "..", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

const EDITED_AWAY = makeUpdate({ id: "u2", status: "identified", body: "The outage was caused by a misconfigured resolver pushed by our team.", createdAt: "2026-03-01T10:30:00.000Z", displayAt: "2026-03-01T10:30:00.000Z" });
const REWRITTEN = { ...EDITED_AWAY, body: "The outage was caused by an upstream network provider." };

async function archive() {
  const db = await freshDatabase();
  const platform = makeTestPlatform({ kind: "recent", limit: 25 });
  const vendor = await ensureVendor(db, { slug: "acme", name: "Acme", platform: platform.name });
  let minute = 0;
  const capture = (incidents: Parameters<typeof snapshotBody>[0]) => {
    minute += 10;
    return ingestSnapshot(db, { vendor, platform, source: "feed.json", observedAt: new Date(Date.UTC(2026, 2, 1, 10, minute)).toISOString(), body: snapshotBody(incidents) });
  };
  return { db, vendor, platform, capture };
}

const search = (db: RedlineDb, words: string, filter: { vendor?: string } = {}, page = { limit: 10, offset: 0 }) =>
  searchIncidents(db, toFtsQuery(words) ?? "", filter, page);

/** An incident whose second update blamed "a misconfigured resolver", then was rewritten to blame the network. */
async function editedIncident() {
  const a = await archive();
  await a.capture([makeIncident({ updates: [makeUpdate(), EDITED_AWAY] })]);
  await a.capture([makeIncident({ updates: [makeUpdate(), REWRITTEN] })]);
  return a;
}

describe("search over every version's text", () => {
  it("finds words a vendor edited away, marked with the last version that said them", async () => {
    const { db } = await editedIncident();
    const { hits } = await search(db, "misconfigured resolver");
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ providerId: "inc1", vendorSlug: "acme", earlierSeq: 1 });
    expect(hits[0]?.snippet).toContain(`${SNIPPET_OPEN}misconfigured${SNIPPET_CLOSE}`);
    expect(hits[0]?.snippet).not.toContain("upstream");
  });

  it("finds the current words as current, and an incident matching both ways once, as current", async () => {
    const { db } = await editedIncident();
    expect((await search(db, "upstream")).hits.map((h) => [h.providerId, h.earlierSeq])).toEqual([["inc1", null]]);
    expect((await search(db, "outage caused")).hits.map((h) => [h.providerId, h.earlierSeq])).toEqual([["inc1", null]]);
  });

  it("finds a title the vendor renamed away", async () => {
    const { db, capture } = await archive();
    await capture([makeIncident({ title: "Data loss in EU storage" })]);
    await capture([makeIncident({ title: "Degraded storage performance" })]);
    expect((await search(db, "loss")).hits.map((h) => [h.title, h.earlierSeq])).toEqual([["Degraded storage performance", 1]]);
  });

  it("ranks every current match before the edited-away ones and pages across both without repeats", async () => {
    const { db, capture } = await archive();
    const incidents = ["a", "b", "c"].map((id) => makeIncident({ id, url: `https://status.acme.test/incidents/${id}`, title: `Webhook delays ${id}` }));
    const edited = makeIncident({ id: "d", url: "https://status.acme.test/incidents/d", title: "Queue backlog", updates: [makeUpdate({ body: "Webhook deliveries are stuck." })] });
    const editedLater = makeIncident({ id: "e", url: "https://status.acme.test/incidents/e", title: "Queue backlog two", updates: [makeUpdate({ body: "Webhook retries are failing." })] });
    await capture([...incidents, edited, editedLater]);
    await capture([...incidents, { ...edited, updates: [makeUpdate({ body: "Deliveries are delayed." })] }, { ...editedLater, updates: [makeUpdate({ body: "Retries are failing." })] }]);
    const all = (await search(db, "webhook", {}, { limit: 10, offset: 0 })).hits;
    expect(all.map((h) => h.earlierSeq === null)).toEqual([true, true, true, false, false]);
    expect(all.slice(3).map((h) => h.providerId).sort()).toEqual(["d", "e"]);
    const pages = await Promise.all([0, 2, 4].map((offset) => search(db, "webhook", {}, { limit: 2, offset })));
    expect(pages.flatMap((p) => p.hits.map((h) => h.providerId))).toEqual(all.map((h) => h.providerId));
    expect(pages.map((p) => p.more)).toEqual([true, true, false]);
  });

  it("applies the vendor filter to edited-away words too", async () => {
    const { db } = await editedIncident();
    await ensureVendor(db, { slug: "other", name: "Other", platform: "test-feed" });
    expect((await search(db, "misconfigured", { vendor: "other" })).hits).toEqual([]);
    expect((await search(db, "misconfigured", { vendor: "acme" })).hits).toHaveLength(1);
  });

  it("keeps the edited-away words through a rebuild of the history, and forgets them with a purged vendor", async () => {
    const db = await freshDatabase();
    const platform = platformNamed("statuspage-summary");
    const vendor = await ensureVendor(db, { slug: "acme", platform: platform.name });
    const bodies = [SUMMARY_FIXTURE.replace("A fix is deployed;", "A misconfigured fix is deployed;"), SUMMARY_FIXTURE];
    await importSnapshots(db, vendor, platform, bodies.map((text, i) => ({ label: `s${i}`, observedAt: `2026-03-0${i + 1}T10:00:00.000Z`, source: "summary.json", read: () => Buffer.from(text) })));
    expect((await search(db, "misconfigured")).hits.map((h) => h.earlierSeq)).toEqual([1]);
    await queueJob(db, vendor.id, "requested", null);
    await runPendingJobs(db, { vendorId: vendor.id, pauseMs: 0 });
    expect((await listRecentJobs(db))[0]).toMatchObject({ status: "done", error: null });
    expect((await search(db, "misconfigured")).hits.map((h) => h.earlierSeq)).toEqual([1]);
    expect(await countRows(db, "version_search")).toBe(1);
    // FTS5's own check of its index; PostgreSQL's version_search is a table with foreign keys.
    if (db.connection.dialect.name === "sqlite") db.$client.prepare("INSERT INTO version_search (version_search, rank) VALUES ('integrity-check', 1)").run();
    await removeVendor(db, "acme", true);
    expect(await countRows(db, "version_search")).toBe(0);
    expect((await search(db, "misconfigured")).hits).toEqual([]);
  });
});
