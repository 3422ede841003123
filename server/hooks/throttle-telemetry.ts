import type { RedlineDb } from "@/db/client";
import { addThrottledCounts, listThrottleTelemetry, markAlerted } from "@/db/operations/hooks";
import { errorMessage } from "@/lib/error-message";

export interface ThrottleAlert {
  scope: string;
  at: string;
  /** Refusals in this scope since its last alert (or since the start). */
  throttled: number;
  limit: { ratePerSecond: number; burst: number };
}

export class TelemetryError extends Error {
  readonly kind = "telemetry";
}

/**
 * Counts refusals per budget scope ("ceiling", "source:<vendor>") and raises an operator alert at
 * most once per scope per interval: a flood pages once an hour, not once per event. Counts are
 * kept in memory and written to the database by flush(), so a flood costs no write per request.
 * A refusal is answered whatever the database does: bookkeeping failures are logged, not thrown.
 */
export class ThrottleTelemetry {
  private readonly pending = new Map<string, { count: number; lastAt: string }>();
  private readonly sinceAlert = new Map<string, number>();
  private lastAlertMs: Map<string, number> | null = null;

  constructor(
    private readonly db: () => RedlineDb,
    private readonly intervalMs: number,
    private readonly alert: (alert: ThrottleAlert) => void,
    private readonly log: (line: string) => void = console.error,
  ) {}

  private async lastAlerts(): Promise<Map<string, number>> {
    if (this.lastAlertMs) return this.lastAlertMs;
    try {
      this.lastAlertMs = new Map(
        (await listThrottleTelemetry(this.db()))
          .filter((r) => r.lastAlertAt !== null)
          .map((r) => [r.scope, Date.parse(r.lastAlertAt ?? "")]),
      );
    } catch (error) {
      // Without the recorded alert times, alerting starts afresh: one early alert, not a flood.
      this.log(`telemetry: unable to read the last alerts: ${errorMessage(error)}`);
      this.lastAlertMs = new Map();
    }
    return this.lastAlertMs;
  }

  async throttled(scope: string, nowMs: number, limit: ThrottleAlert["limit"]): Promise<void> {
    const at = new Date(nowMs).toISOString();
    const entry = this.pending.get(scope);
    this.pending.set(scope, { count: (entry?.count ?? 0) + 1, lastAt: at });
    this.sinceAlert.set(scope, (this.sinceAlert.get(scope) ?? 0) + 1);
    const last = (await this.lastAlerts()).get(scope);
    if (last !== undefined && nowMs - last < this.intervalMs) return;
    (await this.lastAlerts()).set(scope, nowMs);
    try {
      await markAlerted(this.db(), scope, at);
    } catch (error) {
      this.log(`telemetry: unable to record the alert for ${scope}: ${errorMessage(error)}`);
    }
    this.alert({ scope, at, throttled: this.sinceAlert.get(scope) ?? 1, limit });
    this.sinceAlert.set(scope, 0);
  }

  /** Scopes with counts not yet written. */
  get unflushedScopes(): number {
    return this.pending.size;
  }

  /**
   * Write the counts gathered since the last flush. They are cleared only once the write has
   * committed: a failed write (SQLITE_BUSY) throws and keeps them all for the next flush.
   */
  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.entries()];
    try {
      const db = this.db();
      await addThrottledCounts(db, rows);
    } catch (error) {
      throw new TelemetryError(`telemetry: unable to write the throttle counts of ${rows.length} scopes: ${errorMessage(error)}`, { cause: error });
    }
    this.pending.clear();
  }
}
