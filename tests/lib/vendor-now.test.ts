import { describe, expect, it } from "vitest";
import { compareByNow, describeIncidentState, describeStillOpen, describeVendorNow, type FeedKind, feedKindOf, type IncidentNowFacts, nowFactsOf, probableEndOf, type SourceNowFacts } from "@/lib/vendor-now";
import { getPlatform } from "@/scrapers/platforms";

/** Feed kinds as the platforms declare them: the rules read the declarations, not platform names. */
function feedOf(platform: string): FeedKind {
  const declared = getPlatform(platform);
  if (!declared) throw new Error(`no platform ${platform}`);
  return feedKindOf(declared.profile);
}

const activeOnly = feedOf("statuspage-summary");
const recentN = feedOf("statuspage-incidents");
const statusLess = feedOf("rss");

const NOW = new Date("2026-12-02T12:00:00.000Z");
const MIN = 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

function incident(overrides: Partial<IncidentNowFacts & { source: string; id: string }> = {}): IncidentNowFacts & { source: string; id: string } {
  return { id: "i1", status: "investigating", resolvedAt: null, presence: "listed", lastSeenAt: ago(5 * MIN), leftAt: null, kind: "incident", source: "feed", ...overrides };
}

function source(feed: FeedKind | null, overrides: Partial<SourceNowFacts> = {}): SourceNowFacts {
  return { source: "feed", feed, lastGoodAt: ago(2 * MIN), lastAttemptAt: ago(2 * MIN), lastOutcome: "ok", ...overrides };
}

const base = { createdAt: "2026-01-01T00:00:00.000Z", polled: true, intervalMs: 5 * MIN };

describe("feed kinds from the platform declarations", () => {
  it("reads summary.json as active-only, incidents.json as recent-N and an RSS feed as stating no status", () => {
    expect(activeOnly).toMatchObject({ lists: "active", statesEnd: true, showsPostmortems: false, showsEditsAfterResolution: false });
    expect(recentN).toMatchObject({ lists: "recent", statesEnd: true, showsPostmortems: true, showsEditsAfterResolution: true });
    expect(statusLess).toMatchObject({ lists: "recent", statesEnd: false, showsPostmortems: false, showsEditsAfterResolution: false });
  });
});

describe("describeIncidentState", () => {
  it("calls an unresolved incident that left an active-only feed probably resolved on the day it left", () => {
    const left = incident({ presence: "left-feed", lastSeenAt: "2026-02-03T10:00:00.000Z", leftAt: "2026-02-03T10:20:00.000Z" });
    expect(describeIncidentState(left, activeOnly)).toEqual({ state: "probably-resolved", leftAt: "2026-02-03T10:20:00.000Z", label: "left the feed on 2026-02-03 10:20 UTC, probably resolved" });
    expect(probableEndOf(left, activeOnly)).toEqual({ at: "2026-02-03T10:20:00.000Z", probable: true });
  });

  it("does not call an incident that aged out of a recent-N feed resolved, nor open", () => {
    const aged = incident({ presence: "left-feed", leftAt: "2026-02-03T10:20:00.000Z" });
    expect(describeIncidentState(aged, recentN)).toMatchObject({ state: "left-feed", label: "left the feed on 2026-02-03 10:20 UTC, last status Investigating" });
    expect(probableEndOf(aged, recentN)).toBeNull();
  });

  it("says a vendor's status code in words, never as the code, whether the incident is listed or left the feed", () => {
    const gcp = { status: "service_information", leftAt: "2026-02-03T10:20:00.000Z" };
    expect(describeIncidentState(incident({ ...gcp, presence: "left-feed" }), recentN).label).toBe("left the feed on 2026-02-03 10:20 UTC, last status Service information");
    expect(describeIncidentState(incident({ ...gcp, presence: "listed", leftAt: null }), recentN).label).toBe("Service information");
    expect(describeIncidentState(incident({ status: null, presence: "left-feed", leftAt: gcp.leftAt }), recentN).label).toBe("left the feed on 2026-02-03 10:20 UTC, unresolved");
  });

  it("says no status given for an item of a feed without statuses, listed or not", () => {
    expect(describeIncidentState(incident({ status: null }), statusLess)).toEqual({ state: "no-status", label: "no status given" });
    expect(describeIncidentState(incident({ status: null, presence: "left-feed" }), statusLess).state).toBe("no-status");
  });

  it("keeps a resolution the vendor stated, whatever the feed", () => {
    expect(describeIncidentState(incident({ status: "resolved", presence: "left-feed" }), activeOnly).state).toBe("resolved");
    expect(probableEndOf(incident({ resolvedAt: "2026-02-03T11:00:00.000Z" }), recentN)).toEqual({ at: "2026-02-03T11:00:00.000Z", probable: false });
  });
});

describe("describeVendorNow", () => {
  it("shows a vendor never reached as unknown since it was added, never clear", () => {
    const never = describeVendorNow({ ...base, sources: [], unresolved: [] }, NOW);
    expect(never).toMatchObject({ state: "unknown", asOf: null, unknownSince: "2026-01-01T00:00:00.000Z", reason: "never-reached" });
    const onlyFailures = describeVendorNow({ ...base, sources: [source(activeOnly, { lastGoodAt: null, lastOutcome: "failed" })], unresolved: [] }, NOW);
    expect(onlyFailures).toMatchObject({ state: "unknown", reason: "never-reached" });
  });

  it("is clear or has an incident as of a recent good capture of an active-only feed", () => {
    expect(describeVendorNow({ ...base, sources: [source(activeOnly)], unresolved: [] }, NOW)).toMatchObject({ state: "clear", asOf: ago(2 * MIN), unknownSince: null });
    const open = describeVendorNow({ ...base, sources: [source(activeOnly)], unresolved: [incident()] }, NOW);
    expect(open.state).toBe("incident");
    expect(open.open.map((i) => i.id)).toEqual(["i1"]);
  });

  it("turns unknown once the last good capture is older than three intervals, saying polling fails", () => {
    const failing = source(activeOnly, { lastGoodAt: ago(16 * MIN), lastAttemptAt: ago(1 * MIN), lastOutcome: "failed" });
    const now = describeVendorNow({ ...base, sources: [failing], unresolved: [incident()] }, NOW);
    expect(now).toMatchObject({ state: "unknown", asOf: ago(16 * MIN), unknownSince: ago(16 * MIN), reason: "failing" });
    expect(now.open).toHaveLength(1);
    expect(describeVendorNow({ ...base, sources: [source(activeOnly, { lastGoodAt: ago(14 * MIN) })], unresolved: [] }, NOW).state).toBe("clear");
    const quietSource = source(activeOnly, { lastGoodAt: ago(16 * MIN), lastOutcome: "ok" });
    expect(describeVendorNow({ ...base, sources: [quietSource], unresolved: [] }, NOW).reason).toBe("stale");
    expect(describeVendorNow({ ...base, pollFailing: true, sources: [quietSource], unresolved: [] }, NOW).reason).toBe("failing");
  });

  it("is not unknown when the poller read its listing a moment ago, however far behind the clock that stamped the captures runs", () => {
    // The demo's captures are stamped by a catch-up clock 25 days behind; the poller settles its rounds in real time.
    const stamped = source(activeOnly, { lastGoodAt: ago(25 * 1_440 * MIN), lastAttemptAt: ago(25 * 1_440 * MIN) });
    const vendor = { createdAt: base.createdAt, enabled: true, url: "https://status.example.com", intervalSeconds: 2 };
    const facts = nowFactsOf(vendor, { lastOutcome: "ok", lastPollAt: ago(4_000) }, [stamped], 5 * MIN);
    const now = describeVendorNow({ ...facts, unresolved: [incident()] }, NOW);
    expect(now).toMatchObject({ state: "incident", asOf: ago(25 * 1_440 * MIN), unknownSince: null, reason: null });
    expect(now.open.map((i) => i.id)).toEqual(["i1"]);
  });

  it("still turns unknown when the poller's last round failed, or succeeded long ago", () => {
    const stamped = source(activeOnly, { lastGoodAt: ago(25 * 1_440 * MIN) });
    const vendor = { createdAt: base.createdAt, enabled: true, url: "https://status.example.com", intervalSeconds: 2 };
    const failed = nowFactsOf(vendor, { lastOutcome: "failed", lastPollAt: ago(4_000) }, [stamped], 5 * MIN);
    expect(describeVendorNow({ ...failed, unresolved: [] }, NOW)).toMatchObject({ state: "unknown", reason: "failing" });
    const longAgo = nowFactsOf(vendor, { lastOutcome: "ok", lastPollAt: ago(60_000) }, [stamped], 5 * MIN);
    expect(describeVendorNow({ ...longAgo, unresolved: [] }, NOW)).toMatchObject({ state: "unknown", reason: "stale" });
    const notPolled = nowFactsOf({ ...vendor, enabled: false }, { lastOutcome: "ok", lastPollAt: ago(4_000) }, [stamped], 5 * MIN);
    expect(describeVendorNow({ ...notPolled, unresolved: [] }, NOW)).toMatchObject({ state: "unknown", reason: "not-polled" });
  });

  it("keeps an imported archive's years-old open incident as of its capture, not open now", () => {
    const slack = source(feedOf("slack"), { lastGoodAt: "2021-06-03T05:44:58.000Z", lastAttemptAt: "2021-06-03T05:44:58.000Z" });
    const now = describeVendorNow({ ...base, polled: false, sources: [slack], unresolved: [incident({ status: "active" })] }, NOW);
    expect(now).toMatchObject({ state: "unknown", reason: "not-polled", unknownSince: "2021-06-03T05:44:58.000Z" });
  });

  it("counts no item of a status-less feed open", () => {
    const items = [incident({ id: "a", status: null }), incident({ id: "b", status: null })];
    const now = describeVendorNow({ ...base, sources: [source(statusLess)], unresolved: items }, NOW);
    expect(now.state).toBe("clear");
    expect(now.open).toEqual([]);
    expect(now.withoutStatus.map((i) => i.id)).toEqual(["a", "b"]);
  });

  it("does not count open an incident listed only by a source that went quiet while another is fresh", () => {
    const fresh = source(recentN, { source: "incidents.json" });
    const quiet = source(activeOnly, { source: "summary.json", lastGoodAt: ago(60 * MIN) });
    const now = describeVendorNow({ ...base, sources: [fresh, quiet], unresolved: [incident({ source: "summary.json" }), incident({ id: "i2", source: "incidents.json" })] }, NOW);
    expect(now.state).toBe("incident");
    expect(now.open.map((i) => i.id)).toEqual(["i2"]);
  });

  it("is clear while only a maintenance is in progress", () => {
    const now = describeVendorNow({ ...base, sources: [source(recentN)], unresolved: [incident({ kind: "maintenance", status: "in_progress" })] }, NOW);
    expect(now.state).toBe("clear");
    expect(now.open).toHaveLength(1);
  });
});

describe("describeStillOpen", () => {
  const NOW = new Date("2026-12-02T12:00:00.000Z");
  const FIVE_MINUTES = 300_000;
  const incident = { startedAt: "2026-12-02T09:00:00.000Z" };

  it("counts an incident open until now while its source's last good capture is within three intervals", () => {
    expect(describeStillOpen(incident, "2026-12-02T11:46:00.000Z", FIVE_MINUTES, NOW)).toEqual({ current: true, openForMs: 3 * 3_600_000 });
  });

  it("says only that it was open as of a capture older than that, and for how long by then", () => {
    // An imported archive whose last capture is from February: not "open for 292 days".
    expect(describeStillOpen({ startedAt: "2026-02-10T00:00:00.000Z" }, "2026-02-12T00:00:00.000Z", FIVE_MINUTES, NOW)).toEqual({
      current: false,
      asOf: "2026-02-12T00:00:00.000Z",
      openForMs: 2 * 86_400_000,
    });
    expect(describeStillOpen(incident, "2026-12-02T11:44:00.000Z", FIVE_MINUTES, NOW).current).toBe(false);
  });

  it("knows nothing current of a source that never had a good capture", () => {
    expect(describeStillOpen(incident, null, FIVE_MINUTES, NOW)).toEqual({ current: false, asOf: null, openForMs: null });
    expect(describeStillOpen({ startedAt: null }, "2026-12-02T11:59:00.000Z", FIVE_MINUTES, NOW)).toEqual({ current: true, openForMs: null });
  });
});

describe("compareByNow", () => {
  it("puts open incidents first by worst impact, then unknown, then clear, by name case-insensitively", () => {
    const vendors = [
      { name: "zeta", state: "clear" as const, worstImpact: null, open: 0 },
      { name: "Alpha", state: "clear" as const, worstImpact: null, open: 0 },
      { name: "beta", state: "unknown" as const, worstImpact: null, open: 0 },
      { name: "gamma", state: "incident" as const, worstImpact: "minor", open: 3 },
      { name: "delta", state: "incident" as const, worstImpact: "critical", open: 1 },
    ];
    expect([...vendors].sort(compareByNow).map((v) => v.name)).toEqual(["delta", "gamma", "beta", "Alpha", "zeta"]);
  });
});
