import { describe, expect, it } from "vitest";
import { computeVendorFigures, type IncidentFacts, quantile } from "@/lib/vendor-figures";
import { feedKindOf } from "@/lib/vendor-now";
import { getPlatform } from "@/scrapers/platforms";

const h = 3_600_000;

describe("computeVendorFigures", () => {
  it("takes nearest-rank quantiles", () => {
    expect(quantile([5, 1, 3], 0.5)).toBe(3);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([], 0.5)).toBeNull();
  });

  it("counts incidents per month over the whole period, empty months included", () => {
    const figures = computeVendorFigures(
      [
        { startedAt: "2026-01-05T00:00:00.000Z", resolvedAt: "2026-01-05T01:00:00.000Z", impact: "major", postmortemAt: "2026-01-12T01:00:00.000Z", editsAfterResolution: 2 },
        { startedAt: "2026-01-20T00:00:00.000Z", resolvedAt: "2026-01-20T03:00:00.000Z", impact: "minor", postmortemAt: null, editsAfterResolution: 0 },
        { startedAt: "2026-03-01T00:00:00.000Z", resolvedAt: null, impact: null, postmortemAt: null, editsAfterResolution: 1 },
      ],
      { from: "2026-01-01T00:00:00.000Z", to: "2026-03-31T23:59:59.999Z" },
    );
    expect(figures.perMonth).toEqual([{ month: "2026-01", count: 2 }, { month: "2026-02", count: 0 }, { month: "2026-03", count: 1 }]);
    expect(figures.medianResolveMs).toBe(1 * h);
    expect(figures.p90ResolveMs).toBe(3 * h);
    expect(figures.postmortemShare).toBeCloseTo(1 / 3);
    expect(figures.medianPostmortemDelayMs).toBe(7 * 24 * h);
    expect(figures.editsAfterResolution).toBe(3);
    expect(figures.impactMix).toEqual([{ impact: "major", count: 1 }, { impact: "minor", count: 1 }, { impact: "unknown", count: 1 }]);
  });

  it("counts incidents that left an active-only feed as probably resolved then, and leaves the postmortem rate unknown", () => {
    const summary = getPlatform("statuspage-summary");
    if (!summary) throw new Error("no statuspage-summary platform");
    const left = (startedAt: string, leftAt: string): IncidentFacts => ({
      startedAt, resolvedAt: null, impact: "major", postmortemAt: null, editsAfterResolution: 0,
      presence: { status: "investigating", resolvedAt: null, presence: "left-feed", source: "summary.json", lastSeenAt: startedAt, leftAt },
    });
    const listed: IncidentFacts = { ...left("2026-01-09T00:00:00.000Z", "2026-01-09T00:00:00.000Z"), presence: { status: "investigating", resolvedAt: null, presence: "listed", source: "summary.json", lastSeenAt: "2026-01-09T00:00:00.000Z", leftAt: null } };
    const figures = computeVendorFigures(
      [left("2026-01-05T00:00:00.000Z", "2026-01-05T02:00:00.000Z"), left("2026-01-07T00:00:00.000Z", "2026-01-07T04:00:00.000Z"), listed],
      { from: "2026-01-01T00:00:00.000Z", to: "2026-01-31T23:59:59.999Z" },
      (source) => (source === "summary.json" ? feedKindOf(summary.profile) : null),
    );
    expect(figures).toMatchObject({ resolved: 2, probablyResolved: 2, postmortemShare: null, medianResolveMs: 2 * h, p90ResolveMs: 4 * h });
    expect(figures.observable.postmortem).toEqual({ incidents: 0, unseen: 3, because: ["drops-ended"] });
    const unknownFeeds = computeVendorFigures([left("2026-01-05T00:00:00.000Z", "2026-01-05T02:00:00.000Z")], { from: "2026-01-01T00:00:00.000Z", to: "2026-01-31T23:59:59.999Z" });
    expect(unknownFeeds).toMatchObject({ resolved: 1, probablyResolved: 1, postmortemShare: 0, editsAfterResolution: 0 });
  });

  it("leaves edits after resolution unknown, not 0, when no incident's feed keeps it listed with an end, unless an edit was seen", () => {
    const feedOf = (source: string) => {
      const platform = getPlatform(source);
      return platform ? feedKindOf(platform.profile) : null;
    };
    const from = (source: string, edits: number): IncidentFacts => ({
      startedAt: "2026-01-05T00:00:00.000Z", resolvedAt: null, impact: "minor", postmortemAt: null, editsAfterResolution: edits,
      presence: { status: null, resolvedAt: null, presence: "listed", source, lastSeenAt: "2026-01-05T00:00:00.000Z", leftAt: null },
    });
    const period = { from: "2026-01-01T00:00:00.000Z", to: "2026-01-31T23:59:59.999Z" };
    const unseen = computeVendorFigures([from("statuspage-summary", 0), from("rss", 0)], period, feedOf);
    expect(unseen.editsAfterResolution).toBeNull();
    expect(unseen.observable.edits).toEqual({ incidents: 0, unseen: 2, because: ["drops-ended", "no-end"] });
    expect(unseen.observable.end).toEqual({ incidents: 1, unseen: 1, because: ["no-end"] });
    const seenAnyway = computeVendorFigures([from("statuspage-summary", 1), from("rss", 0)], period, feedOf);
    expect(seenAnyway).toMatchObject({ editsAfterResolution: 1, observable: { edits: { incidents: 1, unseen: 1 } } });
    expect(computeVendorFigures([], period, feedOf).editsAfterResolution).toBe(0);
  });
});
