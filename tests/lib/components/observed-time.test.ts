import { describe, expect, it } from "vitest";
import { type CaptureRunFacts, extendWatch, NO_WATCH, observedTimeOf, sourceWatchOf, totalMs } from "@/lib/components/observed-time";
import { createRandom } from "@/bench/synthetic-text";

const MIN = 60_000;
const T = (hhmm: string) => `2026-03-01T${hhmm}:00.000Z`;
const ms = (hhmm: string) => Date.parse(T(hhmm));
const SUMMARY = "summary.json";
const GRID = "components.json";

const good = (first: string, last = first, observations = first === last ? 1 : 2, source = SUMMARY): CaptureRunFacts => ({ source, first: T(first), last: T(last), observations, good: true });
const failed = (first: string, last = first, source = SUMMARY): CaptureRunFacts => ({ source, first: T(first), last: T(last), observations: 1, good: false });

const spans = (list: ReadonlyArray<{ from: number; to: number }>) => list.map((s) => `${new Date(s.from).toISOString().slice(11, 16)}-${new Date(s.to).toISOString().slice(11, 16)}`);
const period = { from: ms("10:00"), to: ms("12:00") };
const options = { intervalMs: 5 * MIN, now: ms("12:00") };

describe("the time Redline watched a status page's grid", () => {
  it("joins good captures at most three poll intervals apart, and leaves a longer silence unobserved as a gap", () => {
    const time = observedTimeOf([good("10:00"), good("10:05", "10:15", 3), good("10:30"), good("11:10"), good("11:20"), good("11:58")], period, options);
    expect(spans(time.observed)).toEqual(["10:00-10:30", "11:10-11:20", "11:58-12:00"]);
    expect(time.unobserved.map((u) => `${spans([u])[0]} ${u.reason}`)).toEqual(["10:30-11:10 gap", "11:20-11:58 gap"]);
    expect(totalMs(time.observed)).toBe(42 * MIN);
  });

  it("never counts the time around a failed capture as watched, however short", () => {
    const time = observedTimeOf([good("10:00"), failed("10:05"), good("10:10"), good("10:15")], { from: ms("10:00"), to: ms("10:15") }, { ...options, now: ms("10:15") });
    expect(spans(time.observed)).toEqual(["10:00-10:00", "10:10-10:15"]);
    expect(time.unobserved.map((u) => u.reason)).toEqual(["failed"]);
  });

  it("counts the page watched while any of its grid sources watched it", () => {
    const time = observedTimeOf([good("10:00", "10:00", 1, GRID), failed("10:05", "10:05", GRID), good("10:10", "10:10", 1, GRID), good("10:00", "10:10", 3, SUMMARY)], { from: ms("10:00"), to: ms("10:10") }, { ...options, now: ms("10:10") });
    expect(spans(time.observed)).toEqual(["10:00-10:10"]);
    expect(time.unobserved).toEqual([]);
  });

  it("takes a run of unchanged observations as watched throughout only when they were, on average, close enough together", () => {
    const sparse = observedTimeOf([good("10:00", "11:00", 2)], { from: ms("10:00"), to: ms("11:00") }, { ...options, now: ms("11:00") });
    expect(spans(sparse.observed)).toEqual(["10:00-10:00", "11:00-11:00"]);
    const dense = observedTimeOf([good("10:00", "11:00", 13)], { from: ms("10:00"), to: ms("11:00") }, { ...options, now: ms("11:00") });
    expect(spans(dense.observed)).toEqual(["10:00-11:00"]);
  });

  it("places the period's start by captures before it, and watches up to now only while the next poll is not overdue", () => {
    const before = observedTimeOf([good("09:55"), good("10:05")], { from: ms("10:00"), to: ms("10:20") }, { ...options, now: ms("10:20") });
    expect(spans(before.observed)).toEqual(["10:00-10:20"]);
    const overdue = observedTimeOf([good("09:55"), good("10:05")], { from: ms("10:00"), to: ms("10:30") }, { ...options, now: ms("10:30") });
    expect(spans(overdue.observed)).toEqual(["10:00-10:05"]);
    expect(overdue.unobserved.map((u) => `${spans([u])[0]} ${u.reason}`)).toEqual(["10:05-10:30 gap"]);
  });

  it("leaves a period without any capture wholly unobserved", () => {
    const time = observedTimeOf([], period, options);
    expect(time.observed).toEqual([]);
    expect(time.unobserved).toEqual([{ ...period, reason: "gap" }]);
  });

  it("adds a later run to a kept watch exactly as working the watch out again from every run would", () => {
    const maxGap = 15 * MIN;
    for (let seed = 1; seed <= 40; seed++) {
      const random = createRandom(seed);
      // Runs of one source one after another: unchanged polls, changes, failures, silences of any length.
      const runs: CaptureRunFacts[] = [];
      let at = ms("00:00");
      for (let i = 0; i < 30; i++) {
        at += Math.floor(random() * 4) * 10 * MIN + (random() < 0.15 ? 60 * MIN : 0) + MIN;
        const observations = 1 + Math.floor(random() * 5);
        const length = observations === 1 ? 0 : Math.floor(random() * 3 + 1) * 10 * MIN * (observations - 1) * (random() < 0.2 ? 3 : 1);
        const iso = (t: number) => new Date(t).toISOString();
        runs.push({ source: SUMMARY, first: iso(at), last: iso(at + length), observations, good: random() > 0.2 });
        at += length;
      }
      let kept = NO_WATCH;
      runs.forEach((run, i) => {
        const extended = extendWatch(kept, run, maxGap);
        expect(extended, `seed ${seed}, run ${i}`).toEqual(sourceWatchOf(runs.slice(0, i + 1), maxGap));
        kept = extended ?? kept;
      });
    }
  });

  it("does not add a run that begins before the kept watch ends (a late capture): the watch is worked out again", () => {
    const kept = sourceWatchOf([good("10:00", "10:30", 4)], 15 * MIN);
    expect(extendWatch(kept, good("10:20"), 15 * MIN)).toBeUndefined();
    expect(extendWatch(kept, good("10:30"), 15 * MIN)).toBeUndefined();
    expect(extendWatch(kept, good("10:40"), 15 * MIN)?.spans).toEqual([{ from: ms("10:00"), to: ms("10:40") }]);
    // The kept watch is left as it was.
    expect(kept.spans).toEqual([{ from: ms("10:00"), to: ms("10:30") }]);
  });
});
