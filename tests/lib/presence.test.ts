import { describe, expect, it } from "vitest";
import { judgeAbsences, needsStanding, recencyOf } from "@/lib/derive/presence";
import { makeIncident } from "@/tests/support/incidents";

const listed = ["2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z", "2026-01-03T00:00:00.000Z"];

describe("judgeAbsences", () => {
  it("never calls anything deleted in an active-only feed", () => {
    const verdicts = judgeAbsences({ kind: "active" }, [{ key: "x", recency: "2026-01-05T00:00:00.000Z" }], listed, 4);
    expect(verdicts.get("x")).toBe("left-feed");
  });

  it("calls an incident deleted from a recent feed only when two or more older ones remain", () => {
    const rule = { kind: "recent", limit: 25 } as const;
    expect(judgeAbsences(rule, [{ key: "x", recency: "2026-01-05T00:00:00.000Z" }], listed, 4).get("x")).toBe("deleted");
    expect(judgeAbsences(rule, [{ key: "x", recency: "2026-01-01T12:00:00.000Z" }], listed, 4).get("x")).toBe("left-feed");
    expect(judgeAbsences(rule, [{ key: "x", recency: null }], listed, 4).get("x")).toBe("left-feed");
  });

  it("says nothing about absences from a single-incident snapshot", () => {
    expect(judgeAbsences({ kind: "single" }, [{ key: "x", recency: null }], [], 1).size).toBe(0);
  });

  it("treats many incidents vanishing at once as a feed change, not deletions", () => {
    const missing = Array.from({ length: 6 }, (_, i) => ({ key: `m${i}`, recency: `2026-02-0${i + 1}T00:00:00.000Z` }));
    const verdicts = judgeAbsences({ kind: "full" }, missing, listed, 9);
    expect([...verdicts.values()].every((v) => v === "left-feed")).toBe(true);
    const few = judgeAbsences({ kind: "full" }, missing.slice(0, 2), listed, 9);
    expect([...few.values()]).toEqual(["deleted", "deleted"]);
  });
});

describe("recencyOf", () => {
  it("ages incidents of an end-ordered feed by their end, and open ones not at all", () => {
    const rule = { kind: "recent", limit: null, by: "end" } as const;
    expect(recencyOf(makeIncident({ resolvedAt: "2026-03-02T00:00:00.000Z" }), rule)).toBe("2026-03-02T00:00:00.000Z");
    expect(recencyOf(makeIncident({ resolvedAt: null }), rule)).toBeNull();
    expect(recencyOf(makeIncident(), { kind: "recent", limit: 25 })).toBe("2026-03-01T10:00:00.000Z");
  });
});

describe("needsStanding", () => {
  const named = new Set(["https://status.example/api/v2/incidents/a1.json"]);

  it("reads every source that lists recent or all incidents, since it may owe any incident a listing", () => {
    expect(needsStanding({ kind: "recent", limit: 25 }, "https://status.example/history.atom", named)).toBe(true);
    expect(needsStanding({ kind: "full" }, "https://status.example/api/v2/incidents.json", named)).toBe(true);
  });

  it("reads another source's standing only when it lists an incident being derived", () => {
    expect(needsStanding({ kind: "single" }, "https://status.example/api/v2/incidents/a1.json", named)).toBe(true);
    expect(needsStanding({ kind: "single" }, "https://status.example/api/v2/incidents/b2.json", named)).toBe(false);
    expect(needsStanding({ kind: "active" }, "https://status.example/api/v2/summary.json", named)).toBe(false);
  });
});
