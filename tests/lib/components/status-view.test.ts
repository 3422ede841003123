import { describe, expect, it, vi } from "vitest";
import { parseStatusAt } from "@/lib/components/status-instant";
import { statusPageHref } from "@/lib/components/status-links";
import { paths } from "@/lib/incident-key";
import { type CoveringRun, refuseBeforeArchive, type StatusFacts, toStatusNowPage, toStatusPage } from "@/lib/components/status-view";
import { renderStatusText } from "@/lib/render/status-text";
import type { SourceNowFacts } from "@/lib/vendor-now";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const MIN = 60_000;
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

function run(componentId: string, status: CoveringRun["status"], extra: Partial<CoveringRun> = {}): CoveringRun {
  return { componentId, name: componentId.toUpperCase(), groupId: null, isGroup: false, status, vendorStatus: status.replace("-", "_"), inferred: false, since: "2026-03-01T09:00:00.000Z", ...extra };
}

function facts(runs: CoveringRun[], overrides: Partial<StatusFacts> = {}): StatusFacts {
  return {
    vendor: { slug: "acme", name: "Acme" }, at: NOW.toISOString(), firstObservedAt: "2026-02-01T00:00:00.000Z",
    observedAt: ago(2 * MIN), nextObservedAt: null, runs, incidents: [], currentChange: "2026-03-01T09:00:00.000Z", previousChange: null, nextChange: null,
    ...overrides,
  };
}

const GRID = [
  run("db", "operational", { groupId: "core" }),
  run("core", "partial-outage", { isGroup: true, name: "Core" }),
  run("queue", "partial-outage", { groupId: "core" }),
  run("web", "operational", { groupId: "edge" }),
  run("edge", "operational", { isGroup: true, name: "Edge" }),
  run("dns", "degraded", { inferred: true }),
  run("mail", "operational"),
];

const source = (lastGoodAt: string | null, lastOutcome = "ok"): SourceNowFacts => ({ source: "feed", feed: { lists: "active", statesEnd: true, showsPostmortems: false, showsEditsAfterResolution: false }, lastGoodAt, lastAttemptAt: lastGoodAt, lastOutcome });
const nowFacts = (lastGoodAt: string | null, lastOutcome = "ok") => ({ createdAt: "2026-01-01T00:00:00.000Z", polled: true, intervalMs: 5 * MIN, sources: [source(lastGoodAt, lastOutcome)] });

describe("the page as it was at a moment", () => {
  it("groups the grid worst first, each group's members worst first, with the group's name on each member", () => {
    const page = toStatusPage(facts(GRID));
    expect(page.groups.map((g) => [g.name, g.worst, g.members.map((m) => m.id)])).toEqual([
      ["Core", "partial-outage", ["queue", "db"]],
      [null, "degraded", ["dns", "mail"]],
      ["Edge", "operational", ["web"]],
    ]);
    expect(page.view.components.map((c) => [c.id, c.group])).toEqual([
      ["core", null], ["queue", "Core"], ["dns", null], ["db", "Core"], ["edge", null], ["mail", null], ["web", "Edge"],
    ]);
    expect(page.standing).toEqual({ kind: "then" });
  });

  it("lists only incidents open then whose source states an end, incidents before maintenances", () => {
    const incident = (id: string, extra: Partial<StatusFacts["incidents"][number]> = {}) => ({ id, title: id, status: "investigating", impact: "minor" as const, kind: "incident" as const, seq: 2, open: true, statesEnd: true, ...extra });
    const page = toStatusPage(facts([], { incidents: [incident("b-maint", { kind: "maintenance" }), incident("z-open"), incident("closed", { open: false }), incident("rss", { statesEnd: false })] }));
    expect(page.view.incidents.map((i) => i.id)).toEqual(["z-open", "b-maint"]);
    expect(Object.keys(page.view.incidents[0] ?? {})).toEqual(["id", "title", "status", "impact", "seq"]);
  });

  it("refuses a moment before the first good capture, saying from when, and any moment of a vendor never captured", () => {
    expect(refuseBeforeArchive(facts([], { at: "2026-01-31T23:59:59.000Z" }))).toBe("Acme is archived from 2026-02-01T00:00:00.000Z: nothing is known of its page before");
    expect(refuseBeforeArchive(facts([], { at: "2026-02-01T00:00:00.000Z" }))).toBeNull();
    expect(refuseBeforeArchive(facts([], { firstObservedAt: null }))).toMatch(/^Redline has no good capture of Acme yet/);
  });
});

describe("the page as it is now", () => {
  it("is current while the last good capture is within three poll intervals", () => {
    const page = toStatusNowPage(facts(GRID), nowFacts(ago(14 * MIN)), NOW);
    expect(page.standing).toEqual({ kind: "current", asOf: ago(14 * MIN) });
    expect(page.view.components.find((c) => c.id === "queue")?.status).toBe("partial-outage");
    expect(renderStatusText(page)).toMatch(/^Acme \(acme\) now \(2026-03-01 12:00:00 UTC\)\nAs observed at 2026-03-01 11:58 UTC, 2 min before;[^]*\nNo incident open now\.\n/);
  });

  it("is unknown since a capture older than that: every component unknown since it, its word kept, nothing open, the groups as observed kept for pages", () => {
    const incidents = [{ id: "i", title: "API errors", status: "investigating", impact: "minor" as const, kind: "incident" as const, seq: 1, open: true, statesEnd: true }];
    const page = toStatusNowPage(facts(GRID, { observedAt: ago(16 * MIN), incidents }), nowFacts(ago(16 * MIN), "failed"), NOW);
    expect(page.standing).toMatchObject({ kind: "unknown", unknownSince: ago(16 * MIN), reason: "failing" });
    expect(page.view.components.every((c) => c.status === "unknown" && c.since === ago(16 * MIN))).toBe(true);
    expect(page.view.components.find((c) => c.id === "queue")?.vendorStatus).toBe("partial_outage");
    expect(page.view.incidents).toEqual([]);
    expect(page.incidents.map((i) => i.id)).toEqual(["i"]);
    expect(page.groups[0]?.worst).toBe("partial-outage");
    const text = renderStatusText(page);
    expect(text).toContain("\nUnknown since the last good capture on 2026-03-01 11:44 UTC (polling is failing): what follows is as observed then, not now.\n");
    expect(text).toContain("\nIncidents open as last observed (1):\n");
  });

  it("is unknown since the vendor was added when it was never reached", () => {
    const page = toStatusNowPage(facts([], { observedAt: null, firstObservedAt: null }), nowFacts(null), NOW);
    expect(page.standing).toMatchObject({ kind: "unknown", asOf: null, unknownSince: "2026-01-01T00:00:00.000Z", reason: "never-reached" });
    expect(renderStatusText(page)).toBe(`Acme (acme) now (2026-03-01 12:00:00 UTC)\nUnknown since 2026-01-01 00:00 UTC: Redline has never captured Acme's status.\n`);
  });
});

describe("the page as text", () => {
  it("prints groups worst first, folds a group all operational into one line, and marks inferred states", () => {
    const text = renderStatusText(toStatusPage(facts(GRID, { observedAt: "2026-03-01T11:57:30.000Z", nextObservedAt: "2026-03-01T12:03:00.000Z", previousChange: "2026-03-01T08:00:00.000Z", nextChange: "2026-03-01T12:03:00.000Z" })));
    expect(text.split("\n").map((l) => l.trimEnd())).toEqual([
      "Acme (acme) as it was at 2026-03-01 12:00:00 UTC",
      "As observed at 2026-03-01 11:57 UTC, 3 min before; next observed at 2026-03-01 12:03 UTC, 3 min after.",
      "",
      "COMPONENT                            STATE                  VENDOR'S WORD          SINCE",
      "Core                                 Partial outage         partial_outage         since 2026-03-01 09:00 UTC",
      "  QUEUE                              Partial outage         partial_outage         since 2026-03-01 09:00 UTC",
      "  DB                                 Operational            operational            since 2026-03-01 09:00 UTC",
      "DNS                                  Degraded performance   degraded               since 2026-03-01 09:00 UTC  inferred from incidents",
      "MAIL                                 Operational            operational            since 2026-03-01 09:00 UTC",
      "Edge (1 component)                   all operational",
      "",
      "No incident open then.",
      "",
      "Previous change: 2026-03-01 08:00:00 UTC; next change: 2026-03-01 12:03:00 UTC.",
      "",
    ]);
  });

  it("keeps a vendor's control characters and long names out of the terminal's way", () => {
    const text = renderStatusText(toStatusPage(facts([run("x", "degraded", { name: `\u001b[31mRed\u0007 ${"long ".repeat(20)}`, vendorStatus: "bad\u001b[2Jword" })])));
    expect([...text].filter((c) => c !== "\n" && (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127))).toEqual([]);
    const line = text.split("\n").find((l) => l.includes("[31mRed")) ?? "";
    expect(line.indexOf("Degraded performance")).toBe(37);
    expect(line).toContain("bad [2Jword");
  });
});

describe("addresses and moments", () => {
  it("links the page as it was with a readable moment, and a component by its encoded key", () => {
    expect(statusPageHref("acme", "2026-03-01T12:00:00.000Z")).toBe("/vendors/acme/status?at=2026-03-01T12:00:00.000Z");
    expect(statusPageHref("acme", "2026-03-01T12:00:00+02:00")).toBe("/vendors/acme/status?at=2026-03-01T12:00:00%2B02:00");
    expect(statusPageHref("acme")).toBe("/vendors/acme/status");
    expect(paths.component("acme", "a/b c")).toBe("/vendors/acme/components/a%2Fb%20c");
  });

  it("reads a moment with an offset at its instant, one without as UTC, and refuses nonsense and what is still to come", () => {
    vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
    try {
      expect(parseStatusAt("2026-03-01T13:05:00+02:00")).toEqual({ at: "2026-03-01T11:05:00.000Z" });
      expect(parseStatusAt("2026-02-28T14:05")).toEqual({ at: "2026-02-28T14:05:00.000Z" });
      expect(parseStatusAt("2026-02-28")).toEqual({ at: "2026-02-28T00:00:00.000Z" });
      expect(parseStatusAt("2026-02-30T10:00:00Z")).toMatchObject({ error: expect.stringContaining("expected an ISO 8601 time") });
      expect(parseStatusAt("soon")).toMatchObject({ error: expect.stringContaining('not "soon"') });
      expect(parseStatusAt("2026-03-01T12:00:01Z")).toMatchObject({ error: expect.stringContaining("still to come") });
      expect(parseStatusAt("x".repeat(65))).toMatchObject({ error: "at most 64 characters" });
    } finally {
      vi.useRealTimers();
    }
  });
});
