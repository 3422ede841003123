import { describe, expect, it } from "vitest";
import { describeImpactHistory, impactEndOf, impactSteps } from "@/lib/impact-history";

const v = (observedAt: string, impact: string | null) => ({ observedAt: `${observedAt}:00.000Z`, impact });

describe("impactSteps", () => {
  it("merges versions of one impact and closes each step at the next change and the last at the end", () => {
    const steps = impactSteps(
      [v("2026-03-01T13:37", "minor"), v("2026-03-01T14:00", "minor"), v("2026-03-01T17:37", "critical"), v("2026-03-01T19:00", "critical")],
      "2026-03-01T21:37:00.000Z",
    );
    expect(steps).toEqual([
      { impact: "minor", since: "2026-03-01T13:37:00.000Z", until: "2026-03-01T17:37:00.000Z" },
      { impact: "critical", since: "2026-03-01T17:37:00.000Z", until: "2026-03-01T21:37:00.000Z" },
    ]);
  });

  it("never ends the last step before it began, and reads an unknown impact as not stated", () => {
    const steps = impactSteps([v("2026-03-01T10:00", "major"), v("2026-03-02T10:00", "UNKNOWN")], "2026-03-01T12:00:00.000Z");
    expect(steps[1]).toEqual({ impact: null, since: "2026-03-02T10:00:00.000Z", until: "2026-03-02T10:00:00.000Z" });
  });
});

describe("describeImpactHistory", () => {
  it("says nothing when the impact never changed", () => {
    expect(describeImpactHistory(impactSteps([v("2026-03-01T10:00", "major"), v("2026-03-01T11:00", "major")], "2026-03-01T12:00:00.000Z"))).toBeNull();
  });

  it("gives the path to a raised impact and how long the current one lasted", () => {
    const steps = impactSteps([v("2026-03-01T13:37", "minor"), v("2026-03-01T17:37", "critical")], "2026-03-01T21:37:00.000Z");
    expect(describeImpactHistory(steps)).toBe("minor → critical at 17:37 UTC, for 4 h");
  });

  it("says how long a lowered impact was shown at its peak and until when", () => {
    const steps = impactSteps([v("2026-03-01T10:00", "major"), v("2026-03-02T07:00", "none")], "2026-03-02T07:00:00.000Z");
    expect(describeImpactHistory(steps)).toBe("was major for 21 h until 2026-03-02 07:00 UTC");
  });

  it("adds the whole path when the impact moved more than once before it was lowered", () => {
    const steps = impactSteps([v("2026-03-01T10:00", "minor"), v("2026-03-01T11:00", "critical"), v("2026-03-01T15:30", "minor")], "2026-03-01T16:00:00.000Z");
    expect(describeImpactHistory(steps)).toBe("was critical for 4 h 30 min until 15:30 UTC (minor → critical at 11:00 UTC → minor at 15:30 UTC)");
  });

  it("treats a change to not stated as a lowering from the last known impact", () => {
    const steps = impactSteps([v("2026-03-01T10:00", "major"), v("2026-03-01T12:00", null)], "2026-03-01T13:00:00.000Z");
    expect(describeImpactHistory(steps)).toBe("was major for 2 h until 12:00 UTC");
  });
});

describe("impactEndOf", () => {
  const versions = [
    { observedAt: "2026-03-01T13:37:00.000Z", kinds: ["incident-new"] },
    { observedAt: "2026-03-01T17:37:00.000Z", kinds: ["impact-escalated"] },
    { observedAt: "2026-03-01T21:37:00.000Z", kinds: ["incident-left-feed"] },
  ];
  const NOW = "2031-09-01T00:00:00.000Z";

  it("ends an unresolved incident that left the feed when it left, not now", () => {
    expect(impactEndOf({ resolvedAt: null }, "left-feed", versions, NOW)).toBe("2026-03-01T21:37:00.000Z");
  });

  it("ends a deleted incident at the version that recorded the deletion, even when a later one followed", () => {
    const deleted = [...versions.slice(0, 2), { observedAt: "2026-03-01T20:00:00.000Z", kinds: ["incident-deleted"] }, { observedAt: "2026-03-02T09:00:00.000Z", kinds: ["title-changed"] }];
    expect(impactEndOf({ resolvedAt: null }, "deleted", deleted, NOW)).toBe("2026-03-01T20:00:00.000Z");
  });

  it("runs an incident still listed and unresolved until the time it is known open", () => {
    expect(impactEndOf({ resolvedAt: null }, "listed", versions.slice(0, 2), NOW)).toBe(NOW);
  });

  it("ends a resolved incident at its resolution, listed or not", () => {
    expect(impactEndOf({ resolvedAt: "2026-03-01T19:00:00.000Z" }, "left-feed", versions, NOW)).toBe("2026-03-01T19:00:00.000Z");
    expect(impactEndOf({ resolvedAt: "2026-03-01T19:00:00.000Z" }, "listed", versions.slice(0, 2), NOW)).toBe("2026-03-01T19:00:00.000Z");
  });
});
