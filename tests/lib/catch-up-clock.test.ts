import { describe, expect, it } from "vitest";
import { catchUpAt, catchUpTime, formatCatchUpClock, parseCatchUpClock, realTimeOf } from "@/lib/catch-up-clock";
import { createPollDeps } from "@/scrapers/poller/create-poller";
import { readEnv } from "@/lib/env";
import { SimClock } from "@/simulator/clock";
import { freshDatabase } from "@/tests/support/database";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REAL = Date.parse("2026-12-02T00:00:00.000Z");

describe("the demo's catch-up clock", () => {
  const clock = { startMs: REAL - 28 * DAY, anchorRealMs: REAL, acceleration: 3_600 };

  it("runs an hour a second from a start in the past", () => {
    expect(catchUpTime(clock, REAL)).toBe(REAL - 28 * DAY);
    expect(catchUpTime(clock, REAL + 24_000)).toBe(REAL - 27 * DAY);
  });

  it("is never ahead of real time: once it reaches it, it runs at real time", () => {
    const reached = Math.ceil(catchUpAt(clock));
    expect(reached).toBeCloseTo(REAL + (28 * DAY) / 3_599, 0);
    for (const later of [reached, reached + 1_000, reached + 7 * DAY]) expect(catchUpTime(clock, later)).toBe(later);
    expect(catchUpTime(clock, reached - 60_000)).toBeLessThan(reached - 60_000);
  });

  it("tells the real instant at which it read a time, before and after it reached real time", () => {
    const reached = Math.ceil(catchUpAt(clock));
    for (const real of [REAL, REAL + 1_000, REAL + 24_000, REAL + 600_000, reached - 1, reached, reached + DAY]) {
      expect(realTimeOf(clock, catchUpTime(clock, real))).toBeCloseTo(real, -1);
    }
    expect(realTimeOf(clock, REAL - 27 * DAY)).toBe(REAL + 24_000);
    expect(realTimeOf(clock, reached + 5_000)).toBe(reached + 5_000);
    // A clock started at real time is real time.
    expect(realTimeOf({ startMs: REAL, anchorRealMs: REAL, acceleration: 3_600 }, REAL + HOUR)).toBe(REAL + HOUR);
  });

  it("goes through the environment unchanged, and refuses anything else", () => {
    expect(parseCatchUpClock(formatCatchUpClock(clock))).toEqual(clock);
    expect(() => parseCatchUpClock("yesterday")).toThrow(/not a demo clock/);
    expect(() => readEnv({ ...process.env, REDLINE_DEMO_CLOCK: "1,2" })).toThrow(/REDLINE_DEMO_CLOCK/);
  });

  it("is the clock the simulator serves by when it must not pass real time", () => {
    let real = REAL;
    const sim = new SimClock(REAL - 28 * DAY, 3_600, () => real, true);
    real += 24_000;
    expect(sim.nowMs()).toBe(REAL - 27 * DAY);
    real += 30 * DAY;
    expect(sim.nowMs()).toBe(real);
    expect(catchUpTime(sim.anchor(), real)).toBe(sim.nowMs());
    // Without the cap the clock runs ahead, as tests and the simulator command may ask.
    let free = REAL;
    const uncapped = new SimClock(REAL, 3_600, () => free);
    free += 1_000;
    expect(uncapped.nowMs()).toBe(REAL + HOUR);
  });

  it("is the time the demo's poller observes by", async () => {
    const deps = createPollDeps(await freshDatabase(), readEnv({ ...process.env, REDLINE_DEMO_CLOCK: formatCatchUpClock({ startMs: 1_000, anchorRealMs: Date.now(), acceleration: 1 }) }));
    const observed = deps.now?.().getTime() ?? Number.NaN;
    expect(observed).toBeLessThan(Date.now() - 1_000_000);
    expect(createPollDeps(await freshDatabase(), readEnv({ ...process.env, REDLINE_DEMO_CLOCK: "" })).now).toBeUndefined();
  });
});
