import { describe, expect, it } from "vitest";
import { acknowledgmentLagOf, type LagRun, summarizeLags } from "@/lib/components/acknowledgment-lag";

const MIN = 60_000;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;
const run = (componentId: string, status: LagRun["status"], from: string, until: string | null, inferred = false): LagRun => ({ componentId, status, inferred, from: T(from), until: until === null ? null : T(until) });
const incident = (firstSeen: string, startedAt: string | null, ids: string[]) => ({ firstSeenAt: T(firstSeen), startedAt: startedAt === null ? null : T(startedAt), components: ids.map((id) => ({ id, name: id.toUpperCase() })) });

describe("acknowledgment lag", () => {
  it("measures from the first capture showing a named component degraded to the incident's first sighting and to its stated start", () => {
    const lag = acknowledgmentLagOf(incident("14:23", "14:10", ["actions"]), [
      run("actions", "operational", "13:00", "14:00"),
      run("actions", "degraded", "14:00", "14:30"),
      run("actions", "operational", "14:30", null),
    ]);
    expect(lag).toMatchObject({ componentName: "ACTIONS", status: "degraded", degradedFrom: T("14:00"), beforeSightingMs: 23 * MIN, beforeStatedStartMs: 10 * MIN });
  });

  it("takes the earliest degradation among the named components, and a worsening as the same degradation", () => {
    const lag = acknowledgmentLagOf(incident("12:00", null, ["api", "web"]), [
      run("web", "degraded", "11:00", "11:30"),
      run("web", "major-outage", "11:30", null),
      run("api", "partial-outage", "11:20", null),
      run("other", "major-outage", "10:00", null),
    ]);
    expect(lag).toMatchObject({ componentId: "web", degradedFrom: T("11:00"), beforeSightingMs: 60 * MIN, beforeStatedStartMs: null });
  });

  it("counts a degradation that ended before the sighting within the window, and one first seen in the same capture as lag zero", () => {
    expect(acknowledgmentLagOf(incident("12:00", "12:00", ["api"]), [run("api", "degraded", "09:00", "09:30")])?.beforeSightingMs).toBe(3 * 60 * MIN);
    expect(acknowledgmentLagOf(incident("12:00", "11:58", ["api"]), [run("api", "partial-outage", "12:00", null)])).toMatchObject({ beforeSightingMs: 0, beforeStatedStartMs: -2 * MIN });
  });

  it("has none for inferred states, maintenance, states after the sighting, degradations begun more than six hours before, or components it does not name", () => {
    expect(acknowledgmentLagOf(incident("12:00", null, ["api"]), [run("api", "degraded", "11:00", null, true)])).toBeNull();
    expect(acknowledgmentLagOf(incident("12:00", null, ["api"]), [run("api", "maintenance", "11:00", null)])).toBeNull();
    expect(acknowledgmentLagOf(incident("12:00", null, ["api"]), [run("api", "degraded", "12:01", null)])).toBeNull();
    expect(acknowledgmentLagOf(incident("12:00", null, ["api"]), [run("api", "degraded", "05:00", "11:00"), run("api", "major-outage", "11:00", null)])).toBeNull();
    expect(acknowledgmentLagOf(incident("12:00", null, []), [run("api", "degraded", "11:00", null)])).toBeNull();
  });

  it("summarizes a vendor by the median lag over the incidents that have one", () => {
    const lag = (ms: number) => ({ names: true, lag: acknowledgmentLagOf(incident("12:00", null, ["a"]), [run("a", "degraded", new Date(Date.parse(T("12:00")) - ms).toISOString().slice(11, 16), null)]) });
    expect(summarizeLags([lag(5 * MIN), lag(20 * MIN), lag(60 * MIN), { names: true, lag: null }, { names: false, lag: null }])).toEqual({ naming: 4, withLag: 3, medianBeforeSightingMs: 20 * MIN });
  });
});
