import { describe, expect, it } from "vitest";
import { type ComponentFigureFacts, computeComponentFigures, type FigureRun } from "@/lib/components/component-figures";
import { describeDegraded, describeDegradedByGroup, describeLag, describeQuiet, describeWatched, NOT_STATED } from "@/lib/components/figure-text";
import { watchesOf } from "@/lib/components/observed-time";
import { comparisonRows, compareVendors } from "@/lib/vendor-comparison";

const MIN = 60_000;
const H = 60 * MIN;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;
const PERIOD = { from: T("00:00"), to: T("12:00") };
const NOW = new Date(T("12:00"));

const run = (componentId: string, status: FigureRun["status"], from: string, until: string | null, extra: Partial<FigureRun> = {}): FigureRun => ({
  componentId, name: componentId.toUpperCase(), groupId: null, isGroup: false, status, inferred: false, from: T(from), until: until === null ? null : T(until), ...extra,
});
/** Polled every five minutes all morning, as one run of unchanged observations. */
const watched = [{ source: "summary.json", first: T("00:00"), last: T("12:00"), observations: 145, good: true }];

function facts(extra: Partial<ComponentFigureFacts> = {}): ComponentFigureFacts {
  return {
    knowledge: "stated",
    runs: [
      run("grp", "operational", "00:00", null, { isGroup: true, name: "Platform" }),
      run("api", "operational", "00:00", "02:00", { groupId: "grp" }),
      run("api", "degraded", "02:00", "03:00", { groupId: "grp" }),
      run("api", "operational", "03:00", null, { groupId: "grp" }),
      run("db", "partial-outage", "02:30", "04:00", { groupId: "grp" }),
      run("db", "operational", "04:00", null, { groupId: "grp" }),
      run("web", "major-outage", "06:00", "06:30"),
      run("web", "operational", "06:30", null),
    ],
    watches: watchesOf(watched, 5 * MIN),
    intervalMs: 5 * MIN,
    quietDegradations: 2,
    incidents: [
      { firstSeenAt: T("02:20"), startedAt: T("02:10"), components: [{ id: "api", name: "API" }] },
      { firstSeenAt: T("06:00"), startedAt: T("06:00"), components: [{ id: "web", name: "WEB" }] },
      { firstSeenAt: T("09:00"), startedAt: T("09:00"), components: [] },
    ],
    ...extra,
  };
}

describe("a vendor's component figures", () => {
  it("gives per group the watched time some component was degraded or out, and the median acknowledgment lag", () => {
    const f = computeComponentFigures(facts(), PERIOD, NOW);
    if (!f.known) throw new Error("expected figures");
    expect(f.groups.map((g) => [g.name, g.degradedMs / MIN, g.outageMs / MIN, g.components.map((c) => c.key)])).toEqual([
      ["Platform", 120, 90, ["api", "db"]],
      [null, 30, 30, ["web"]],
    ]);
    expect([f.overall.degradedMs / MIN, f.observedMs / H, f.quietDegradations]).toEqual([150, 12, 2]);
    expect(f.lag).toEqual({ naming: 2, withLag: 2, medianBeforeSightingMs: 0 });
    expect(describeDegraded(f)).toBe("2 h 30 min (21% of the time watched), 2 h of it out");
    expect(describeDegradedByGroup(f)).toBe("Platform: 2 h (17%)");
    expect(describeLag(f)).toBe("0 min (2 of 2 incidents naming components)");
  });

  it("counts only watched time: a morning not watched is unknown, never operational", () => {
    const f = computeComponentFigures(facts({ watches: [] }), PERIOD, NOW);
    expect(describeDegraded(f)).toBe("unknown: the grid was not watched in this period");
    expect(describeWatched(f)).toBe("0 min of 12 h (0%)");
  });

  it("says not stated, never 0, for a vendor whose feeds state no grid, and marks inferred states as such", () => {
    const none = computeComponentFigures(facts({ knowledge: null }), PERIOD, NOW);
    expect(none).toEqual({ known: false });
    expect([describeWatched(none), describeDegraded(none), describeQuiet(none), describeLag(none)]).toEqual([NOT_STATED, NOT_STATED, NOT_STATED, NOT_STATED]);
    const inferred = computeComponentFigures(facts({ knowledge: "inferred", runs: [run("gce", "degraded", "01:00", "02:00", { inferred: true })] }), PERIOD, NOW);
    expect(describeDegraded(inferred)).toBe("1 h (8.3% of the time watched) (inferred from open incidents)");
    expect(describeQuiet(inferred)).toBe("not stated: components only inferred from incidents");
    expect(describeLag(inferred)).toBe("not stated: components only inferred from incidents");
  });

  it("adds the component rows to the comparison, each vendor's own figure or not stated", () => {
    const compared = compareVendors(
      [
        { slug: "a", name: "A", facts: [], archived: { first: PERIOD.from, last: PERIOD.to }, feedOf: () => null, grid: { ...facts(), now: NOW } },
        { slug: "b", name: "B", facts: [], archived: { first: PERIOD.from, last: PERIOD.to }, feedOf: () => null, grid: { ...facts({ knowledge: null }), now: NOW } },
      ],
      PERIOD,
    );
    const rows = Object.fromEntries(comparisonRows(compared).map((r) => [r.label, r.values]));
    expect(rows["Quiet degradations"]).toEqual(["2", NOT_STATED]);
    expect(rows["Time degraded or out, any component"]).toEqual(["2 h 30 min (21% of the time watched), 2 h of it out", NOT_STATED]);
    expect(rows["Median acknowledgment lag"]?.[1]).toBe(NOT_STATED);
  });
});
