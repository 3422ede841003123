/**
 * How a subscription's waiting changes become messages. A few changes a minute go out one per
 * message; beyond that they go together (a burst of hundreds of changes during a large outage is a
 * handful of messages, never hundreds). A digest subscription gets one message per period (UTC
 * hour or day) at most, after the period ends.
 */

/** Messages a subscription may be sent per minute; beyond it, changes wait for the next minute. */
export const MESSAGES_PER_MINUTE = 5;
/** Changes one batch carries: a burst of 1,000 is 10 batches over two minutes. */
export const BATCH_MAX_CHANGES = 100;
const MINUTE_MS = 60_000;

export interface PendingNotification {
  id: number;
  createdAt: string;
}

export interface PlanInput {
  now: string;
  digest: "hourly" | "daily" | null;
  /** The subscription's notifications not yet in a message, oldest first. */
  pending: readonly PendingNotification[];
  /** When the subscription's messages (not tests) of the last minute were formed. */
  recentMessageTimes: readonly string[];
  /** When its last digest was formed; null if never. */
  lastDigestAt: string | null;
}

export interface PlannedMessage {
  kind: "single" | "batch" | "digest";
  notificationIds: number[];
  period: { from: string; to: string; every: "hourly" | "daily" } | null;
}

/** The start of the UTC hour or day holding the time. */
export function periodStart(time: string, every: "hourly" | "daily"): string {
  const d = new Date(time);
  d.setUTCMinutes(0, 0, 0);
  if (every === "daily") d.setUTCHours(0);
  return d.toISOString();
}

function planDigest(input: PlanInput, every: "hourly" | "daily"): PlannedMessage[] {
  const current = periodStart(input.now, every);
  // One digest per period: one was formed in this period already, so the rest waits for the next.
  if (input.lastDigestAt !== null && periodStart(input.lastDigestAt, every) === current) return [];
  const ended = input.pending.filter((n) => n.createdAt < current);
  const first = ended[0];
  if (!first) return [];
  return [{ kind: "digest", notificationIds: ended.map((n) => n.id), period: { from: periodStart(first.createdAt, every), to: current, every } }];
}

export function planMessages(input: PlanInput): PlannedMessage[] {
  if (input.digest !== null) return planDigest(input, input.digest);
  const since = Date.parse(input.now) - MINUTE_MS;
  let allowance = MESSAGES_PER_MINUTE - input.recentMessageTimes.filter((t) => Date.parse(t) > since).length;
  const planned: PlannedMessage[] = [];
  let rest = [...input.pending];
  while (rest.length > 0 && allowance > 0) {
    if (rest.length <= allowance) {
      for (const n of rest) planned.push({ kind: "single", notificationIds: [n.id], period: null });
      break;
    }
    const batch = rest.slice(0, BATCH_MAX_CHANGES);
    planned.push({ kind: "batch", notificationIds: batch.map((n) => n.id), period: null });
    rest = rest.slice(batch.length);
    allowance -= 1;
  }
  return planned;
}
