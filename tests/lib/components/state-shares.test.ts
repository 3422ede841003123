import { describe, expect, it } from "vitest";
import { dayStripOf } from "@/lib/components/day-strip";
import { observedTimeOf } from "@/lib/components/observed-time";
import { type StateRun, stateSharesOf } from "@/lib/components/state-shares";

const MIN = 60_000;
const H = 60 * MIN;
const at = (day: string, hhmm: string) => `2026-03-${day}T${hhmm}:00.000Z`;
const run = (status: StateRun["status"], from: string, until: string | null, inferred = false): StateRun => ({ status, from, until, inferred });

/** Good captures every five minutes from `from` to `to` as one run of unchanged observations. */
const polled = (from: string, to: string) => ({ source: "summary.json", first: from, last: to, observations: (Date.parse(to) - Date.parse(from)) / (5 * MIN) + 1, good: true });

describe("the share of time in each state", () => {
  it("counts only watched time, worst state first, and keeps the time not watched apart, never as operational", () => {
    const runs = [run("operational", at("01", "00:00"), at("01", "06:00")), run("partial-outage", at("01", "06:00"), at("01", "07:00")), run("operational", at("01", "07:00"), null)];
    const period = { from: Date.parse(at("01", "00:00")), to: Date.parse(at("02", "00:00")) };
    const captures = [polled(at("01", "00:00"), at("01", "12:00")), { source: "summary.json", first: at("01", "12:05"), last: at("01", "14:00"), observations: 3, good: false }, polled(at("01", "14:05"), at("02", "00:00"))];
    const time = observedTimeOf(captures, period, { intervalMs: 5 * MIN, now: period.to });
    const shares = stateSharesOf(runs, time, period);
    expect(shares.byState.map((s) => [s.state, s.ms / H])).toEqual([["partial-outage", 1], ["operational", 24 - 1 - 2 - 5 / 60]]);
    expect(shares.unobservedMs.failed).toBe(2 * H + 5 * MIN);
    expect(shares.observedMs + shares.unobservedMs.failed + shares.unobservedMs.gap).toBe(24 * H);
    expect(shares.byState[0]?.share).toBeCloseTo(1 / (24 - 2 - 5 / 60));
  });

  it("says where the page did not list the component while it was watched, and how much rests on inference", () => {
    const runs = [run("degraded", at("01", "02:00"), at("01", "03:00"), true), run("operational", at("01", "03:00"), at("01", "04:00"), true)];
    const period = { from: Date.parse(at("01", "00:00")), to: Date.parse(at("01", "06:00")) };
    const time = observedTimeOf([polled(at("01", "00:00"), at("01", "06:00"))], period, { intervalMs: 5 * MIN, now: period.to });
    const shares = stateSharesOf(runs, time, period);
    expect(shares.byState.map((s) => [s.state, s.ms / H])).toEqual([["degraded", 1], ["operational", 1], ["not-listed", 4]]);
    expect(shares.inferredMs).toBe(2 * H);
  });
});

describe("the strip of the last days", () => {
  it("colours each day by the worst state watched that day, and a day not watched at all as not observed", () => {
    const runs = [run("operational", at("01", "00:00"), at("02", "10:00")), run("major-outage", at("02", "10:00"), at("02", "10:30")), run("operational", at("02", "10:30"), null)];
    const now = Date.parse(at("04", "12:00"));
    const captures = [polled(at("01", "00:00"), at("02", "23:55")), { source: "summary.json", first: at("04", "11:00"), last: at("04", "11:00"), observations: 1, good: true }];
    const time = observedTimeOf(captures, { from: Date.parse(at("01", "00:00")), to: now }, { intervalMs: 5 * MIN, now });
    const strip = dayStripOf(runs, time.observed, { days: 4, now });
    expect(strip.map((c) => [c.day, c.state])).toEqual([["2026-03-01", "operational"], ["2026-03-02", "major-outage"], ["2026-03-03", "not-observed"], ["2026-03-04", "operational"]]);
    expect(strip.map((c) => c.observedMs / H)).toEqual([24, 24 - 5 / 60, 0, 0]);
    expect(strip[3]?.dayMs).toBe(12 * H);
  });

  it("marks a day the page was watched but did not list the component as not listed, not operational", () => {
    const now = Date.parse(at("02", "12:00"));
    const time = observedTimeOf([polled(at("01", "00:00"), at("02", "12:00"))], { from: Date.parse(at("01", "00:00")), to: now }, { intervalMs: 5 * MIN, now });
    const strip = dayStripOf([run("degraded", at("02", "01:00"), null)], time.observed, { days: 2, now });
    expect(strip.map((c) => c.state)).toEqual(["not-listed", "degraded"]);
  });
});
