/** When a vendor is polled next, after a good or a failed round. Pure, so it is tested alone. */

export interface SchedulePolicy {
  intervalMs: number;
  maxBackoffMs: number;
  /** Fraction of the delay added or removed at random, so vendors do not poll in lockstep. */
  jitter: number;
}

export interface PollHistory {
  consecutiveFailures: number;
}

export interface NextPoll {
  delayMs: number;
  consecutiveFailures: number;
  backoffMs: number;
}

function jittered(ms: number, jitter: number, random: () => number): number {
  return Math.max(0, Math.round(ms * (1 + jitter * (2 * random() - 1))));
}

/**
 * A good round waits one interval. A failed one doubles the wait per consecutive failure, up to
 * the cap, and never comes back sooner than the server's Retry-After.
 */
export function nextPoll(
  policy: SchedulePolicy,
  previous: PollHistory,
  outcome: { ok: boolean; retryAfterMs: number | null },
  random: () => number = Math.random,
): NextPoll {
  if (outcome.ok) return { delayMs: jittered(policy.intervalMs, policy.jitter, random), consecutiveFailures: 0, backoffMs: 0 };
  const failures = previous.consecutiveFailures + 1;
  const backoff = Math.min(policy.maxBackoffMs, policy.intervalMs * 2 ** (failures - 1));
  const delay = Math.max(jittered(backoff, policy.jitter, random), outcome.retryAfterMs ?? 0);
  return { delayMs: Math.min(delay, Math.max(policy.maxBackoffMs, outcome.retryAfterMs ?? 0)), consecutiveFailures: failures, backoffMs: backoff };
}

/**
 * The polling plan as the poller announces it: each vendor's own interval where it has one, so
 * the log never claims the default for vendors that are polled more often.
 * "12 vendors every 10 s", "150 vendors every 300 s, 6 every 60 s", "no vendor to poll".
 */
export function describePollingPlan(defaultSeconds: number, vendorIntervals: readonly (number | null)[]): string {
  if (vendorIntervals.length === 0) return "no vendor to poll yet";
  const counts = new Map<number, number>();
  for (const own of vendorIntervals) {
    const seconds = own ?? defaultSeconds;
    counts.set(seconds, (counts.get(seconds) ?? 0) + 1);
  }
  const parts = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([seconds, n]) => `${n} every ${seconds} s`);
  const noun = vendorIntervals.length === 1 ? "vendor" : "vendors";
  const [first = "", ...rest] = parts;
  return [first.replace(/^(\d+) /, `$1 ${noun} `), ...rest].join(", ");
}
