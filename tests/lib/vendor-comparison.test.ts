import { describe, expect, it } from "vitest";
import { comparisonRange, comparisonRows, compareVendors, monthsSpanned } from "@/lib/vendor-comparison";
import type { IncidentFacts } from "@/lib/vendor-figures";

const fact = (startedAt: string, hours: number | null, extra: Partial<IncidentFacts> = {}): IncidentFacts => ({
  startedAt,
  resolvedAt: hours === null ? null : new Date(Date.parse(startedAt) + hours * 3_600_000).toISOString(),
  impact: "minor",
  postmortemAt: null,
  editsAfterResolution: 0,
  ...extra,
});

const PERIOD = { from: "2021-01-01T00:00:00.000Z", to: "2021-03-31T23:59:59.999Z" };

describe("comparing vendors", () => {
  it("puts each figure of each vendor in one row, in the vendors' order", () => {
    const compared = compareVendors(
      [
        { slug: "jira", name: "Jira", archived: { first: "2020-06-01T00:00:00.000Z", last: "2021-05-01T00:00:00.000Z" }, facts: [fact("2021-01-03T00:00:00.000Z", 1), fact("2021-01-10T00:00:00.000Z", 3, { postmortemAt: "2021-01-17T03:00:00.000Z", editsAfterResolution: 3 }), fact("2021-03-01T00:00:00.000Z", null)] },
        { slug: "slack", name: "Slack", archived: { first: null, last: null }, facts: [] },
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

  it("counts incidents per month only over the months a vendor's archive covers, so a short archive is not diluted", () => {
    const [short] = compareVendors([{ slug: "a", name: "A", archived: { first: "2021-03-05T00:00:00.000Z", last: "2021-03-20T00:00:00.000Z" }, facts: [fact("2021-03-06T00:00:00.000Z", 1), fact("2021-03-07T00:00:00.000Z", 1)] }], PERIOD);
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
