import type { RedlineDb } from "@/db/client";
import { addThrottled, listThrottleTelemetry, markAlerted } from "@/db/hooks";

export interface ThrottleAlert {
  scope: string;
  at: string;
  /** Refusals in this scope since its last alert (or since the start). */
  throttled: number;
  limit: { ratePerSecond: number; burst: number };
}

/**
 * Counts refusals per budget scope ("ceiling", "source:<vendor>") and raises an operator alert at
 * most once per scope per interval: a flood pages once an hour, not once per event. Counts are
 * kept in memory and written to the database by flush(), so a flood costs no write per request.
 */
export class ThrottleTelemetry {
  private readonly pending = new Map<string, { count: number; lastAt: string }>();
  private readonly sinceAlert = new Map<string, number>();
  private lastAlertMs: Map<string, number> | null = null;

  constructor(
    private readonly db: () => RedlineDb,
    private readonly intervalMs: number,
    private readonly alert: (alert: ThrottleAlert) => void,
  ) {}

  private lastAlerts(): Map<string, number> {
    this.lastAlertMs ??= new Map(
      listThrottleTelemetry(this.db())
        .filter((r) => r.lastAlertAt !== null)
        .map((r) => [r.scope, Date.parse(r.lastAlertAt ?? "")]),
    );
    return this.lastAlertMs;
  }

  throttled(scope: string, nowMs: number, limit: ThrottleAlert["limit"]): void {
    const at = new Date(nowMs).toISOString();
    const entry = this.pending.get(scope);
    this.pending.set(scope, { count: (entry?.count ?? 0) + 1, lastAt: at });
    this.sinceAlert.set(scope, (this.sinceAlert.get(scope) ?? 0) + 1);
    const last = this.lastAlerts().get(scope);
    if (last !== undefined && nowMs - last < this.intervalMs) return;
    this.lastAlerts().set(scope, nowMs);
    markAlerted(this.db(), scope, at);
    this.alert({ scope, at, throttled: this.sinceAlert.get(scope) ?? 1, limit });
    this.sinceAlert.set(scope, 0);
  }

  /** Write the counts gathered since the last flush. */
  flush(): void {
    if (this.pending.size === 0) return;
    const db = this.db();
    const rows = [...this.pending.entries()];
    this.pending.clear();
    db.$client.transaction(() => {
      for (const [scope, { count, lastAt }] of rows) addThrottled(db, scope, count, lastAt);
    })();
  }
}
