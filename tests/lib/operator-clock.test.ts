import { describe, expect, it } from "vitest";
import { catchUpAt, catchUpTime } from "@/lib/catch-up-clock";
import { operatorClockOf } from "@/lib/operator-clock";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const REAL = Date.parse("2026-12-02T05:00:00.000Z");
const DEMO = { startMs: REAL - 28 * DAY, anchorRealMs: REAL, acceleration: 3_600 };

describe("the operator page's clock", () => {
  it("shows a capture stamped by the demo clock at the real instant it was taken, beside the scheduler's real times", () => {
    const now = REAL + 5 * 60_000;
    const clock = operatorClockOf(DEMO, now);
    // A failure first captured 30 real seconds ago, and polled again just now (the scheduler's real stamp).
    const firstCapture = new Date(catchUpTime(DEMO, now - 30_000)).toISOString();
    expect(Date.parse(firstCapture)).toBeLessThan(now - 10 * DAY);
    expect(clock.captured(firstCapture)).toBe(new Date(now - 30_000).toISOString());
    expect(clock.captured(null)).toBeNull();
  });

  it("says in the demo which clock the archive's pages read and how far behind it is, then that it caught up", () => {
    const during = operatorClockOf(DEMO, REAL + 5 * 60_000).note ?? "";
    // Five real minutes at an hour a second: 300 simulated hours after its start four weeks back.
    expect(during).toContain("now 2026-11-16 17:00 UTC, 15 days 12 h behind real time");
    expect(during).toMatch(/behind real time until 2026-12-02 05:1\d UTC/);
    expect(during).toContain("This page shows real time throughout");
    const after = operatorClockOf(DEMO, catchUpAt(DEMO) + HOUR).note ?? "";
    expect(after).toMatch(/reached real time at 2026-12-02 05:1\d UTC/);
    expect(after).not.toContain("behind");
  });

  it("changes nothing outside the demo", () => {
    const clock = operatorClockOf(null, REAL);
    expect(clock.note).toBeNull();
    expect(clock.captured("2026-11-01T00:00:00.000Z")).toBe("2026-11-01T00:00:00.000Z");
  });
});
