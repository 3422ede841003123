import { describe, expect, it } from "vitest";
import { comparisonRange, comparisonRows, compareVendors, monthsSpanned } from "@/lib/vendor-comparison";
import type { FeedOf, IncidentFacts } from "@/lib/vendor-figures";
import { feedKindOf } from "@/lib/vendor-now";
import { getPlatform } from "@/scrapers/platforms";

const fact = (startedAt: string, hours: number | null, extra: Partial<IncidentFacts> = {}): IncidentFacts => ({
  startedAt,
  resolvedAt: hours === null ? null : new Date(Date.parse(startedAt) + hours * 3_600_000).toISOString(),
  impact: "minor",
  postmortemAt: null,
  editsAfterResolution: 0,
  ...extra,
});

/** Sources named after the platform that reads them, as the platforms declare their feeds. */
const feedsByPlatform: FeedOf = (source) => {
  const platform = getPlatform(source);
  return platform ? feedKindOf(platform.profile) : null;
};
const unknownFeeds: FeedOf = () => null;

const fromSource = (source: string, startedAt: string, extra: Partial<IncidentFacts> = {}): IncidentFacts => ({
  ...fact(startedAt, null, extra),
  presence: { status: "investigating", resolvedAt: null, presence: "left-feed", source, lastSeenAt: startedAt, leftAt: new Date(Date.parse(startedAt) + 2 * 3_600_000).toISOString() },
});

const PERIOD = { from: "2021-01-01T00:00:00.000Z", to: "2021-03-31T23:59:59.999Z" };

describe("comparing vendors", () => {
  it("puts each figure of each vendor in one row, in the vendors' order", () => {
    const compared = compareVendors(
      [
        { slug: "jira", name: "Jira", archived: { first: "2020-06-01T00:00:00.000Z", last: "2021-05-01T00:00:00.000Z" }, facts: [fact("2021-01-03T00:00:00.000Z", 1), fact("2021-01-10T00:00:00.000Z", 3, { postmortemAt: "2021-01-17T03:00:00.000Z", editsAfterResolution: 3 }), fact("2021-03-01T00:00:00.000Z", null)], feedOf: unknownFeeds },
        { slug: "slack", name: "Slack", archived: { first: null, last: null }, facts: [], feedOf: unknownFeeds },
      ],
      PERIOD,
    );
    const rows = Object.fromEntries(comparisonRows(compared).map((r) => [r.label, r.values]));
    expect(rows["Incidents"]).toEqual(["3", "0"]);
    expect(rows["Months archived"]).toEqual(["3", "0"]);
    expect(rows["Incidents per archived month"]).toEqual(["1.0", "nothing archived"]);
    expect(rows["Busiest month"]).toEqual(["2021-01 (2)", "none"]);
    expect(rows["Median time to resolve"]).toEqual(["1 h", "none resolved"]);
    expect(rows["90th percentile time to resolve"]).toEqual(["3 h", "none resolved"]);
    expect(rows["With a postmortem"]).toEqual(["33%", "no incidents"]);
    expect(rows["Median wait for the postmortem"]).toEqual(["7 days", "no postmortem"]);
    expect(rows["Edits after resolution"]).toEqual(["3", "0"]);
    expect(rows["Edits after resolution per incident"]).toEqual(["1.00", "no incidents"]);
  });

  it("says a figure the vendor's feeds cannot show is unknown, with why, where a feed that can show it says 0", () => {
    const archived = { first: "2021-01-01T00:00:00.000Z", last: "2021-03-31T00:00:00.000Z" };
    const vendor = (slug: string, platform: string) => ({
      slug, name: slug, archived, feedOf: feedsByPlatform,
      facts: [fromSource(platform, "2021-01-03T00:00:00.000Z"), fromSource(platform, "2021-02-03T00:00:00.000Z")],
    });
    const compared = compareVendors([vendor("summary", "statuspage-summary"), vendor("incidents", "statuspage-incidents"), vendor("rss", "rss")], PERIOD);
    const rows = Object.fromEntries(comparisonRows(compared).map((r) => [r.label, r.values]));
    expect(rows["With a postmortem"]).toEqual(["unknown: every incident is from a feed that drops ended incidents", "0%", "unknown: every incident is from a feed without postmortems"]);
    expect(rows["Median wait for the postmortem"]).toEqual(["unknown: every incident is from a feed that drops ended incidents", "no postmortem", "unknown: every incident is from a feed without postmortems"]);
    expect(rows["Edits after resolution"]).toEqual(["unknown: every incident is from a feed that drops ended incidents", "0", "unknown: every incident is from a feed without status or end"]);
    expect(rows["Edits after resolution per incident"]).toEqual(["unknown: every incident is from a feed that drops ended incidents", "0.00", "unknown: every incident is from a feed without status or end"]);
    expect(rows["Median time to resolve"]).toEqual(["2 h (2 of 2 ended when they left the feed)", "none resolved", "unknown: every incident is from a feed without status or end"]);
  });

  it("counts a figure over the incidents whose feeds can show it, and says how many more could not", () => {
    const archived = { first: "2021-01-01T00:00:00.000Z", last: "2021-03-31T00:00:00.000Z" };
    const [mixed] = compareVendors([{
      slug: "mixed", name: "Mixed", archived, feedOf: feedsByPlatform,
      facts: [
        fromSource("statuspage-incidents", "2021-01-03T00:00:00.000Z", { postmortemAt: "2021-01-05T00:00:00.000Z", editsAfterResolution: 2 }),
        fromSource("statuspage-incidents", "2021-01-04T00:00:00.000Z"),
        fromSource("statuspage-summary", "2021-01-05T00:00:00.000Z"),
      ],
    }], PERIOD);
    const rows = Object.fromEntries(comparisonRows(mixed ? [mixed] : []).map((r) => [r.label, r.values]));
    expect(rows["With a postmortem"]).toEqual(["50% (of 2; 1 more from a feed that drops ended incidents)"]);
    expect(rows["Edits after resolution"]).toEqual(["2 (in 2; 1 more from a feed that drops ended incidents)"]);
    expect(rows["Edits after resolution per incident"]).toEqual(["1.00"]);
  });

  it("counts incidents per month only over the months a vendor's archive covers, so a short archive is not diluted", () => {
    const [short] = compareVendors([{ slug: "a", name: "A", archived: { first: "2021-03-05T00:00:00.000Z", last: "2021-03-20T00:00:00.000Z" }, facts: [fact("2021-03-06T00:00:00.000Z", 1), fact("2021-03-07T00:00:00.000Z", 1)], feedOf: unknownFeeds }], PERIOD);
    expect(short?.archivedMonths).toBe(1);
    expect(comparisonRows(short ? [short] : []).find((r) => r.label === "Incidents per archived month")?.values).toEqual(["2.0"]);
    expect(monthsSpanned("2020-11-30T00:00:00.000Z", "2021-02-01T00:00:00.000Z")).toBe(4);
    expect(monthsSpanned("2021-02-01T00:00:00.000Z", "2021-01-01T00:00:00.000Z")).toBe(0);
  });

  it("measures every vendor over the span their archives share", () => {
    expect(comparisonRange([
      { first: "2021-01-05T00:00:00.000Z", last: "2021-12-01T00:00:00.000Z" },
      { first: "2021-03-01T00:00:00.000Z", last: "2022-06-01T00:00:00.000Z" },
    ])).toEqual({ first: "2021-03-01T00:00:00.000Z", last: "2021-12-01T00:00:00.000Z" });
  });

  it("covers all of them when the archives do not overlap or one is empty", () => {
    expect(comparisonRange([
      { first: "2020-01-01T00:00:00.000Z", last: "2020-02-01T00:00:00.000Z" },
      { first: "2021-03-01T00:00:00.000Z", last: "2021-04-01T00:00:00.000Z" },
    ])).toEqual({ first: "2020-01-01T00:00:00.000Z", last: "2021-04-01T00:00:00.000Z" });
    expect(comparisonRange([{ first: "2021-03-01T00:00:00.000Z", last: "2021-04-01T00:00:00.000Z" }, { first: null, last: null }])).toEqual({ first: "2021-03-01T00:00:00.000Z", last: "2021-04-01T00:00:00.000Z" });
    expect(comparisonRange([{ first: null, last: null }])).toEqual({ first: null, last: null });
  });
});
