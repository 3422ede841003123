import type { RedlineDb } from "@/db/client";
import { getPollState, listDueVendors, listPollableVendors, nextDueAt, savePollState } from "@/db/poll-state";
import { nextPushPollDue, takeDuePushPolls } from "@/db/hooks";
import { getVendorById, type VendorRow } from "@/db/vendors";
import { type PollDeps, pollVendor, type VendorPollResult } from "@/scrapers/poller/poll-vendor";
import { nextPoll, type SchedulePolicy } from "@/scrapers/poller/schedule-policy";

export interface SchedulerOptions {
  concurrency: number;
  policy: SchedulePolicy;
  /** Longest sleep between looks at the schedule (vendors added meanwhile are seen this soon). */
  tickMs?: number;
  /** Poll only this vendor. */
  onlySlug?: string;
  /** Polls asked for by webhook pushes run in a lane of their own, this wide (default 2). */
  pushConcurrency?: number;
  onPolled?: (vendor: VendorRow, result: VendorPollResult) => void;
  random?: () => number;
}

export interface RoundSummary {
  vendors: number;
  ok: number;
  failed: number;
  versionsAdded: number;
}

/**
 * Polls every enabled vendor on its own interval with bounded concurrency. A slow or failing
 * vendor holds one slot for at most its request timeouts and then backs off; the others go on.
 * State lives in the database, so a restart resumes where it stopped.
 */
export class Scheduler {
  private stopping = false;
  private readonly inFlight = new Map<number, Promise<void>>();
  /** The push lane: polls webhooks asked for, never taking a scheduled poll's slot. */
  private readonly pushInFlight = new Map<number, Promise<void>>();
  private wake: (() => void) | null = null;

  constructor(
    private readonly deps: PollDeps,
    private readonly options: SchedulerOptions,
  ) {}

  private get db(): RedlineDb {
    return this.deps.db;
  }

  private intervalOf(vendor: VendorRow): SchedulePolicy {
    return vendor.intervalSeconds ? { ...this.options.policy, intervalMs: vendor.intervalSeconds * 1000 } : this.options.policy;
  }

  private async pollOne(vendor: VendorRow): Promise<VendorPollResult> {
    let result: VendorPollResult;
    try {
      result = await pollVendor(this.deps, vendor);
    } catch (error) {
      result = { ok: false, error: `${vendor.slug}: ${error instanceof Error ? error.message : String(error)}`, retryAfterMs: null, endpoints: [], versionsAdded: 0 };
    }
    const previous = getPollState(this.db, vendor.id);
    const next = nextPoll(this.intervalOf(vendor), { consecutiveFailures: previous?.consecutiveFailures ?? 0 }, result, this.options.random);
    const now = Date.now();
    savePollState(this.db, {
      vendorId: vendor.id,
      nextPollAt: new Date(now + next.delayMs).toISOString(),
      lastPollAt: new Date(now).toISOString(),
      lastOutcome: result.ok ? "ok" : "failed",
      lastError: result.error,
      consecutiveFailures: next.consecutiveFailures,
      backoffSeconds: Math.round(next.backoffMs / 1000),
    });
    this.options.onPolled?.(vendor, result);
    return result;
  }

  /** Poll every enabled vendor (or one) once now, whatever their schedule. */
  async runOnce(slug?: string): Promise<RoundSummary> {
    const queue = listPollableVendors(this.db, slug);
    const summary: RoundSummary = { vendors: queue.length, ok: 0, failed: 0, versionsAdded: 0 };
    const workers = Array.from({ length: Math.min(this.options.concurrency, queue.length) }, async () => {
      for (let vendor = queue.shift(); vendor; vendor = queue.shift()) {
        const result = await this.pollOne(vendor);
        if (result.ok) summary.ok += 1;
        else summary.failed += 1;
        summary.versionsAdded += result.versionsAdded;
      }
    });
    await Promise.all(workers);
    return summary;
  }

  /** Poll vendors as they fall due until stop() is called. */
  async run(): Promise<void> {
    const tickMs = this.options.tickMs ?? 1_000;
    while (!this.stopping) {
      const busy = () => [...this.inFlight.keys(), ...this.pushInFlight.keys()];
      const free = this.options.concurrency - this.inFlight.size;
      if (free > 0) {
        const due = listDueVendors(this.db, new Date().toISOString(), free, busy(), this.options.onlySlug);
        for (const vendor of due) this.start(this.inFlight, vendor);
      }
      const pushFree = (this.options.pushConcurrency ?? 2) - this.pushInFlight.size;
      if (pushFree > 0 && this.options.onlySlug === undefined) {
        for (const id of takeDuePushPolls(this.db, new Date().toISOString(), pushFree, busy())) {
          const vendor = getVendorById(this.db, id);
          if (vendor) this.start(this.pushInFlight, vendor);
        }
      }
      const full = this.inFlight.size >= this.options.concurrency;
      const nextScheduled = full ? null : nextDueAt(this.db, busy(), this.options.onlySlug);
      const nextPush = this.pushInFlight.size >= (this.options.pushConcurrency ?? 2) ? null : nextPushPollDue(this.db);
      const next = [nextScheduled, nextPush].filter((d): d is string => d !== null).sort()[0] ?? null;
      const untilDue = next === null ? tickMs : Math.max(10, Date.parse(next) - Date.now());
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(tickMs, untilDue));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    await Promise.all([...this.inFlight.values(), ...this.pushInFlight.values()]);
  }

  private start(lane: Map<number, Promise<void>>, vendor: VendorRow): void {
    const task = this.pollOne(vendor).then(
      () => undefined,
      () => undefined,
    );
    lane.set(vendor.id, task);
    void task.finally(() => {
      lane.delete(vendor.id);
      this.wake?.();
    });
  }

  /** Stop scheduling; the polls in flight finish (each capture is recorded whole or not at all). */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }
}
