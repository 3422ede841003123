/**
 * What an attempt's result means for the message and its subscription: retried with exponential
 * backoff and jitter for a day (the first retry within a minute at the default base), Retry-After
 * honoured, 410 Gone disabling at once, and a run of failures spanning a day disabling too.
 */
import type { SendResult } from "@/lib/notify/send-result";

const HOUR_MS = 3_600_000;
/** A message is retried at least this long after it was formed. */
export const RETRY_FOR_MS = 25 * HOUR_MS;
/** A subscription failing without a single success for this long is disabled. */
export const DISABLE_AFTER_MS = 24 * HOUR_MS;
/** The longest wait between two attempts, Retry-After included. */
const MAX_DELAY_MS = 6 * HOUR_MS;

export interface AttemptContext {
  now: string;
  result: SendResult;
  /** Attempts made so far, this one included. */
  attempts: number;
  messageCreatedAt: string;
  /** When the subscription's current run of failures began; null if its last attempt succeeded. */
  failingSince: string | null;
  baseDelayMs: number;
  /** In [0, 1): the jitter's draw. */
  random: number;
}

export type MessageOutcome = { status: "sent" } | { status: "pending"; nextAttemptAt: string } | { status: "failed" | "dropped"; reason: string };
export type SubscriptionOutcome = { kind: "unchanged" } | { kind: "delivered" } | { kind: "failing"; since: string } | { kind: "disable"; reason: string };

export interface AttemptDecision {
  message: MessageOutcome;
  subscription: SubscriptionOutcome;
}

/** Full jitter over the upper half: base·2^(n−1) scaled by [0.5, 1), so retries of many messages spread out. */
export function backoffDelayMs(attempts: number, baseDelayMs: number, random: number): number {
  const ceiling = Math.min(MAX_DELAY_MS, baseDelayMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(ceiling * (0.5 + random / 2));
}

export function decideAfterAttempt(c: AttemptContext): AttemptDecision {
  const now = Date.parse(c.now);
  const error = c.result.error ?? `status ${c.result.statusCode ?? "none"}`;
  if (c.result.outcome === "delivered") return { message: { status: "sent" }, subscription: { kind: "delivered" } };
  if (c.result.outcome === "gone") {
    const reason = `the target answered ${c.result.statusCode ?? 410} Gone`;
    return { message: { status: "dropped", reason }, subscription: { kind: "disable", reason } };
  }
  const since = c.failingSince ?? c.now;
  if (now - Date.parse(since) >= DISABLE_AFTER_MS) {
    const reason = `every delivery failed since ${since}; last error: ${error}`;
    return { message: { status: "dropped", reason }, subscription: { kind: "disable", reason } };
  }
  const failing: SubscriptionOutcome = { kind: "failing", since };
  if (c.result.outcome === "failed") return { message: { status: "failed", reason: error }, subscription: failing };
  const delay = Math.max(backoffDelayMs(c.attempts, c.baseDelayMs, c.random), Math.min(c.result.retryAfterMs ?? 0, MAX_DELAY_MS));
  const deadline = Date.parse(c.messageCreatedAt) + RETRY_FOR_MS;
  if (now >= deadline) {
    return { message: { status: "failed", reason: `gave up after ${c.attempts} attempts over a day; last error: ${error}` }, subscription: failing };
  }
  // The last retry falls on the deadline rather than past it.
  return { message: { status: "pending", nextAttemptAt: new Date(Math.min(now + delay, deadline)).toISOString() }, subscription: failing };
}
