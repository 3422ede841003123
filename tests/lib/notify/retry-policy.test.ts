import { describe, expect, it } from "vitest";
import { backoffDelayMs, decideAfterAttempt, type AttemptContext } from "@/lib/notify/retry-policy";
import { planMessages } from "@/lib/notify/plan-messages";

const NOW = "2026-03-01T12:00:00.000Z";
const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const retry = { outcome: "retry" as const, statusCode: 500, retryAfterMs: null, error: "HTTP 500" };
const context = (over: Partial<AttemptContext> = {}): AttemptContext => ({
  now: NOW, result: retry, attempts: 1, messageCreatedAt: NOW, failingSince: null, baseDelayMs: 30_000, random: 0.99, ...over,
});

describe("the retry policy", () => {
  it("retries first within a minute at the default base, then doubles with jitter, never past six hours apart", () => {
    expect(backoffDelayMs(1, 30_000, 0.999)).toBeLessThanOrEqual(30_000);
    expect(backoffDelayMs(1, 30_000, 0)).toBe(15_000);
    expect(backoffDelayMs(2, 30_000, 0.999)).toBeLessThanOrEqual(60_000);
    expect(backoffDelayMs(30, 30_000, 0.999)).toBeLessThanOrEqual(6 * 3_600_000);
  });

  it("keeps retrying for a day, and gives a message up only after that", () => {
    const early = decideAfterAttempt(context({ attempts: 12, failingSince: at(-20 * 3_600_000), messageCreatedAt: at(-20 * 3_600_000) }));
    expect(early.message.status).toBe("pending");
    const late = decideAfterAttempt(context({ attempts: 20, failingSince: at(-3_600_000), messageCreatedAt: at(-25 * 3_600_000) }));
    expect(late.message).toMatchObject({ status: "failed", reason: expect.stringMatching(/gave up/) });
  });

  it("waits at least as long as Retry-After asks", () => {
    const d = decideAfterAttempt(context({ result: { ...retry, statusCode: 429, retryAfterMs: 600_000 } }));
    expect(d.message).toEqual({ status: "pending", nextAttemptAt: at(600_000) });
  });

  it("disables on 410 at once, and after failures spanning a day; a success clears the run", () => {
    expect(decideAfterAttempt(context({ result: { outcome: "gone", statusCode: 410, retryAfterMs: null, error: null } })).subscription).toMatchObject({ kind: "disable" });
    expect(decideAfterAttempt(context({ failingSince: at(-24 * 3_600_000) })).subscription).toMatchObject({ kind: "disable", reason: expect.stringMatching(/HTTP 500/) });
    expect(decideAfterAttempt(context({ failingSince: at(-3_600_000) })).subscription).toEqual({ kind: "failing", since: at(-3_600_000) });
    expect(decideAfterAttempt(context({ result: { outcome: "delivered", statusCode: 200, retryAfterMs: null, error: null } }))).toEqual({ message: { status: "sent" }, subscription: { kind: "delivered" } });
  });
});

describe("planning messages", () => {
  const pending = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, createdAt: at(-1_000) }));
  it("sends a few changes one per message, and a burst in batches of at most 100, five messages a minute at most", () => {
    expect(planMessages({ now: NOW, digest: null, pending: pending(3), recentMessageTimes: [], lastDigestAt: null }).map((m) => m.kind)).toEqual(["single", "single", "single"]);
    const burst = planMessages({ now: NOW, digest: null, pending: pending(1_000), recentMessageTimes: [], lastDigestAt: null });
    expect(burst.map((m) => [m.kind, m.notificationIds.length])).toEqual(Array(5).fill(["batch", 100]));
    expect(planMessages({ now: NOW, digest: null, pending: pending(2), recentMessageTimes: Array(5).fill(at(-30_000)), lastDigestAt: null })).toEqual([]);
  });

  it("sends a digest only after its period ends, and once per period", () => {
    const hour = "2026-03-01T11:00:00.000Z";
    const items = [{ id: 1, createdAt: "2026-03-01T11:10:00.000Z" }, { id: 2, createdAt: "2026-03-01T12:00:05.000Z" }];
    const [digest, ...rest] = planMessages({ now: "2026-03-01T12:00:10.000Z", digest: "hourly", pending: items, recentMessageTimes: [], lastDigestAt: null });
    expect(rest).toEqual([]);
    expect(digest).toEqual({ kind: "digest", notificationIds: [1], period: { from: hour, to: "2026-03-01T12:00:00.000Z", every: "hourly" } });
    expect(planMessages({ now: "2026-03-01T12:59:00.000Z", digest: "hourly", pending: items.slice(1), recentMessageTimes: [], lastDigestAt: "2026-03-01T12:00:10.000Z" })).toEqual([]);
  });
});
