import { KeyedBuckets } from "@/lib/token-bucket";

export interface FailureBudgetSettings {
  /** Failed attempts a client may make before it waits. */
  burst: number;
  /** Each this many seconds gives a waiting client one more attempt; 0 turns the budget off. */
  intervalSeconds: number;
}

/**
 * Failed attempts per client (wrong sign-ins, pushes to webhook addresses that do not exist): a few
 * at once, then one per interval. Only failures spend it, so a client that waits as told gets its
 * attempt, and a person who mistypes a token once or twice never notices it.
 */
export class FailureBudget {
  private readonly buckets: KeyedBuckets;

  constructor(private readonly settings: FailureBudgetSettings) {
    this.buckets = new KeyedBuckets({ ratePerSecond: settings.intervalSeconds > 0 ? 1 / settings.intervalSeconds : 1, burst: settings.burst });
  }

  /** Seconds `client` must wait before its next attempt is heard; 0 when it may try now. */
  waitSeconds(client: string, nowMs: number): number {
    if (this.settings.intervalSeconds <= 0) return 0;
    return this.buckets.secondsUntil(client, nowMs);
  }

  /** Counts a failed attempt of `client`; returns the attempts it has left before it waits. */
  fail(client: string, nowMs: number): number {
    if (this.settings.intervalSeconds <= 0) return this.settings.burst;
    return this.buckets.take(client, nowMs).remaining;
  }
}
