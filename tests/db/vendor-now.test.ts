import { beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listSourceStandings } from "@/db/queries/vendor-now";
import { listIncidentFacts } from "@/db/queries/vendor-profile";
import { describeVendorNowIncidents, getVendorOverview, type NowRules } from "@/db/queries/vendors-overview";
import { addVendor, ensureVendor, type VendorRow } from "@/db/settings/vendors";
import type { Incident } from "@/lib/incident";
import { comparisonRows, compareVendors } from "@/lib/vendor-comparison";
import { computeVendorFigures } from "@/lib/vendor-figures";
import { feedsBySource } from "@/lib/vendor-now";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import type { Platform } from "@/scrapers/platforms/platform";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const activeOnly = makeTestPlatform({ kind: "active" }, 1, "test-active");
const recentN = makeTestPlatform({ kind: "recent", limit: 25 }, 1, "test-recent");
const statusLess = makeTestPlatform({ kind: "recent", limit: null }, 1, "test-statusless", { fields: { title: "exact", url: "exact", startedAt: "exact" }, updates: null });
const PLATFORMS = [activeOnly, recentN, statusLess];
const rules: NowRules = { profileOf: (name) => PLATFORMS.find((p) => p.name === name)?.profile ?? null, defaultIntervalMs: 5 * 60_000 };

const T0 = "2026-03-01T10:05:00.000Z";
const T1 = "2026-03-01T12:05:00.000Z";
const T2 = "2026-03-01T14:05:00.000Z";
const SOON_AFTER = new Date("2026-03-01T14:07:00.000Z");

let db: RedlineDb;
let activeVendorId = 0;

async function capture(vendor: VendorRow, platform: Platform, observedAt: string, incidents: readonly Incident[] | null) {
  const body = incidents === null ? new Uint8Array() : snapshotBody(incidents);
  await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt, body });
}

async function overview(slug: string, at = SOON_AFTER) {
  const found = await getVendorOverview(db, at, rules, slug);
  if (!found) throw new Error(`no vendor ${slug}`);
  return found;
}

beforeAll(async () => {
  db = await freshDatabase();
  const outage = (vendor: string) => makeIncident({ vendor, id: "out1", title: "API outage", status: "investigating" });

  const jira = await ensureVendor(db, { slug: "active-only", platform: activeOnly.name });
  activeVendorId = jira.id;
  await capture(jira, activeOnly, T0, [outage("active-only")]);
  await capture(jira, activeOnly, T1, []);
  await capture(jira, activeOnly, T2, []);

  const recent = await ensureVendor(db, { slug: "recent-n", platform: recentN.name });
  await capture(recent, recentN, T0, [outage("recent-n")]);
  await capture(recent, recentN, T2, [outage("recent-n")]);

  const rss = await ensureVendor(db, { slug: "status-less", platform: statusLess.name });
  const item = (id: string) => makeIncident({ vendor: "status-less", id, title: `Post ${id}`, status: null, impact: null, components: [], updates: [] });
  await capture(rss, statusLess, T2, [item("a"), item("b")]);

  const never = await addVendor(db, { slug: "never-reached", name: "Never Reached", platform: activeOnly.name, url: "https://status.never.test" }, "catalog", "2026-02-20T00:00:00.000Z");
  await capture(never, activeOnly, T1, null);
  await capture(never, activeOnly, T2, null);
});

describe("a vendor's Now from its stored captures and its feed's declared profile", () => {
  it("does not count open an incident that left an active-only feed unresolved, and dates its probable end", async () => {
    const jira = await overview("active-only");
    expect(jira.now).toMatchObject({ state: "clear", asOf: T2 });
    expect(jira.openIncidents).toBe(0);
    const figures = computeVendorFigures(await listIncidentFacts(db, activeVendorId, "2026-03-01T00:00:00.000Z", "2026-04-01T00:00:00.000Z"), { from: "2026-03-01T00:00:00.000Z", to: "2026-03-31T23:59:59.999Z" }, feedsBySource(jira.sources));
    expect(figures).toMatchObject({ incidents: 1, resolved: 1, probablyResolved: 1, postmortemShare: null, editsAfterResolution: null });
    // Started 10:00, last listed 10:05, gone at the 12:05 capture.
    expect(figures.medianResolveMs).toBe(2 * 3_600_000 + 5 * 60_000);
  });

  it("compares vendors with each one's feeds from its captures: unknown where a feed cannot show a figure, as on the vendor page", async () => {
    const period = { from: "2026-03-01T00:00:00.000Z", to: "2026-03-31T23:59:59.999Z" };
    const vendors = await Promise.all(["active-only", "recent-n", "status-less"].map(async (slug) => {
      const { vendorId, sources } = await overview(slug);
      const standings = await listSourceStandings(db, vendorId, rules.profileOf);
      expect(standings).toEqual(sources);
      return { slug, name: slug, archived: { first: T0, last: T2 }, facts: await listIncidentFacts(db, vendorId, period.from, "2026-04-01T00:00:00.000Z"), feedOf: feedsBySource(standings) };
    }));
    const rows = Object.fromEntries(comparisonRows(compareVendors(vendors, period)).map((r) => [r.label, r.values]));
    expect(rows["With a postmortem"]).toEqual(["unknown: every incident is from a feed that drops ended incidents", "0%", "unknown: every incident is from a feed without postmortems"]);
    expect(rows["Edits after resolution"]).toEqual(["unknown: every incident is from a feed that drops ended incidents", "0", "unknown: every incident is from a feed without status or end"]);
    expect(rows["Median time to resolve"]?.[2]).toBe("unknown: every incident is from a feed without status or end");
  });

  it("counts open an incident a recent-N feed still lists unresolved", async () => {
    const recent = await overview("recent-n");
    expect(recent.now.state).toBe("incident");
    expect(recent.openIncidents).toBe(1);
    expect(recent.worstOpenImpact).toBe("minor");
  });

  it("counts no item of a feed without statuses open, and says how many it lists", async () => {
    const rss = await overview("status-less");
    expect(rss.now.state).toBe("clear");
    expect(rss.openIncidents).toBe(0);
    expect(rss.now.withoutStatus.map((g) => g.count)).toEqual([2]);
    expect((await describeVendorNowIncidents(db, rss, SOON_AFTER)).withoutStatus.map((i) => i.providerId).sort()).toEqual(["a", "b"]);
  });

  it("shows a catalog vendor whose every capture failed as unknown since it was added", async () => {
    expect((await overview("never-reached")).now).toMatchObject({ state: "unknown", asOf: null, reason: "never-reached", unknownSince: "2026-02-20T00:00:00.000Z" });
  });

  it("turns unknown a day later, keeping what the last good capture listed but counting nothing open", async () => {
    const later = await overview("recent-n", new Date("2026-03-02T14:05:00.000Z"));
    expect(later.now).toMatchObject({ state: "unknown", unknownSince: T2, reason: "not-polled" });
    expect((await describeVendorNowIncidents(db, later, new Date("2026-03-02T14:05:00.000Z"))).open.map((i) => i.providerId)).toEqual(["out1"]);
    expect(later.openIncidents).toBe(0);
  });
});
