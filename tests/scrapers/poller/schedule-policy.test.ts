import { describe, expect, it } from "vitest";
import { describePollingPlan, nextPoll, type SchedulePolicy } from "@/scrapers/poller/schedule-policy";

const policy: SchedulePolicy = { intervalMs: 300_000, maxBackoffMs: 3_600_000, jitter: 0.1 };
const middle = () => 0.5;

describe("nextPoll", () => {
  it("waits one interval after a good round, jittered within ten percent", () => {
    expect(nextPoll(policy, { consecutiveFailures: 3 }, { ok: true, retryAfterMs: null }, middle)).toEqual({ delayMs: 300_000, consecutiveFailures: 0, backoffMs: 0 });
    expect(nextPoll(policy, { consecutiveFailures: 0 }, { ok: true, retryAfterMs: null }, () => 0).delayMs).toBe(270_000);
    expect(nextPoll(policy, { consecutiveFailures: 0 }, { ok: true, retryAfterMs: null }, () => 1).delayMs).toBe(330_000);
  });

  it("doubles the wait with each consecutive failure, up to an hour", () => {
    const delays: number[] = [];
    let history = { consecutiveFailures: 0 };
    for (let i = 0; i < 8; i += 1) {
      const next = nextPoll(policy, history, { ok: false, retryAfterMs: null }, middle);
      delays.push(next.delayMs);
      history = next;
    }
    expect(delays).toEqual([300_000, 600_000, 1_200_000, 2_400_000, 3_600_000, 3_600_000, 3_600_000, 3_600_000]);
  });

  it("never comes back sooner than the server's Retry-After", () => {
    expect(nextPoll(policy, { consecutiveFailures: 0 }, { ok: false, retryAfterMs: 900_000 }, middle).delayMs).toBe(900_000);
    expect(nextPoll(policy, { consecutiveFailures: 0 }, { ok: false, retryAfterMs: 7_200_000 }, middle).delayMs).toBe(7_200_000);
  });
});

describe("describePollingPlan", () => {
  it("announces the vendors' own interval, not the default, when every vendor has one (the demo polls every 10 s)", () => {
    expect(describePollingPlan(300, Array.from({ length: 12 }, () => 10))).toBe("12 vendors every 10 s");
  });

  it("announces each interval in use with how many vendors it has, the most common first", () => {
    expect(describePollingPlan(300, [null, null, 60, null, 10, 60, null])).toBe("4 vendors every 300 s, 2 every 60 s, 1 every 10 s");
    expect(describePollingPlan(300, [null])).toBe("1 vendor every 300 s");
  });

  it("says there is nothing to poll rather than naming an interval nobody uses", () => {
    expect(describePollingPlan(300, [])).toBe("no vendor to poll yet");
  });
});
