import type { RedlineDb } from "@/db/client";
import { claimDueVendors, nextClaimableAt, renewLeases, settlePoll } from "@/db/operations/poll-leases";
import { getPollState, listPollableVendors } from "@/db/operations/poll-state";
import { nextPushPollDue, takeDuePushPolls } from "@/db/operations/hooks";
import { getVendorById, type VendorRow } from "@/db/settings/vendors";
import { errorMessage } from "@/lib/error-message";
import { type PollDeps, pollVendor, type VendorPollResult } from "@/scrapers/poller/poll-vendor";
import { type LeasePolicy, leasePolicy } from "@/scrapers/poller/poller-lease";
import { nextPoll, type SchedulePolicy } from "@/scrapers/poller/schedule-policy";

/** The longest the loop waits before reading a schedule it could not read again. */
const MAX_SCHEDULE_RETRY_MS = 30_000;

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
  /** Where failures that cannot be recorded on a vendor are told (default: stderr). */
  log?: (line: string) => void;
  /** How this poller holds the vendors it claims from the database it shares with other pollers. */
  lease?: LeasePolicy;
}

export interface RoundSummary {
  vendors: number;
  ok: number;
  failed: number;
  versionsAdded: number;
  /** The first failed vendor's error, in the order they finished. */
  firstError: string | null;
}

function failedPoll(error: string): VendorPollResult {
  return { ok: false, error, retryAfterMs: null, endpoints: [], versionsAdded: 0 };
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Polls every enabled vendor on its own interval with bounded concurrency. A slow or failing
 * vendor holds one slot for at most its request timeouts and then backs off; the others go on.
 * State lives in the database, so a restart resumes where it stopped. Every failure is recorded
 * on its vendor; one that cannot even be written is logged and the vendor is held back in memory.
 */
export class Scheduler {
  private stopping = false;
  private readonly inFlight = new Map<number, Promise<void>>();
  /** The push lane: polls webhooks asked for, never taking a scheduled poll's slot. */
  private readonly pushInFlight = new Map<number, Promise<void>>();
  /** Vendors whose last outcome could not be saved: their backoff, kept until a save succeeds. */
  private readonly unsaved = new Map<number, { consecutiveFailures: number; retryAtMs: number }>();
  private scheduleFailures = 0;
  private wake: (() => void) | null = null;
  private readonly lease: LeasePolicy;
  private renewedAtMs = 0;

  constructor(
    private readonly deps: PollDeps,
    private readonly options: SchedulerOptions,
  ) {
    this.lease = options.lease ?? leasePolicy(60);
  }

  /** Who this poller is in the vendors' leases. */
  get owner(): string {
    return this.lease.owner;
  }

  private get db(): RedlineDb {
    return this.deps.db;
  }

  private log(line: string): void {
    (this.options.log ?? console.error)(line);
  }

  private intervalOf(vendor: VendorRow): SchedulePolicy {
    return vendor.intervalSeconds ? { ...this.options.policy, intervalMs: vendor.intervalSeconds * 1000 } : this.options.policy;
  }

  private async pollOne(vendor: VendorRow): Promise<VendorPollResult> {
    let result: VendorPollResult;
    try {
      result = await pollVendor(this.deps, vendor);
    } catch (error) {
      result = failedPoll(`${vendor.slug}: ${errorMessage(error)}`);
    }
    await this.settle(vendor, result);
    try {
      this.options.onPolled?.(vendor, result);
    } catch (error) {
      this.log(`poller: ${vendor.slug}: reporting its poll failed: ${errorMessage(error)}`);
    }
    return result;
  }

  /** Record the outcome and when the vendor is polled next; if that write fails, back off in memory. */
  private async settle(vendor: VendorRow, result: VendorPollResult): Promise<void> {
    let previous = this.unsaved.get(vendor.id)?.consecutiveFailures ?? 0;
    try {
      previous = this.unsaved.get(vendor.id)?.consecutiveFailures ?? (await getPollState(this.db, vendor.id))?.consecutiveFailures ?? 0;
      const next = nextPoll(this.intervalOf(vendor), { consecutiveFailures: previous }, result, this.options.random);
      const now = Date.now();
      await settlePoll(
        this.db,
        {
          vendorId: vendor.id,
          nextPollAt: new Date(now + next.delayMs).toISOString(),
          lastPollAt: new Date(now).toISOString(),
          lastOutcome: result.ok ? "ok" : "failed",
          lastError: result.error,
          consecutiveFailures: next.consecutiveFailures,
          backoffSeconds: Math.round(next.backoffMs / 1000),
        },
        this.lease.owner,
      );
      this.unsaved.delete(vendor.id);
    } catch (error) {
      this.holdBack(vendor, previous, `unable to save the outcome of its poll (${result.ok ? "ok" : result.error}): ${errorMessage(error)}`);
    }
  }

  private holdBack(vendor: VendorRow, previousFailures: number, why: string): void {
    const next = nextPoll(this.intervalOf(vendor), { consecutiveFailures: previousFailures }, { ok: false, retryAfterMs: null }, this.options.random);
    this.unsaved.set(vendor.id, { consecutiveFailures: next.consecutiveFailures, retryAtMs: Date.now() + next.delayMs });
    this.log(`poller: ${vendor.slug}: ${why}; polling it again in ${seconds(next.delayMs)}`);
  }

  /** Poll every enabled vendor (or one) once now, whatever their schedule. */
  async runOnce(slug?: string): Promise<RoundSummary> {
    const queue = await listPollableVendors(this.db, slug);
    const summary: RoundSummary = { vendors: queue.length, ok: 0, failed: 0, versionsAdded: 0, firstError: null };
    const workers = Array.from({ length: Math.min(this.options.concurrency, queue.length) }, async () => {
      for (let vendor = queue.shift(); vendor; vendor = queue.shift()) {
        const result = await this.pollOne(vendor);
        if (result.ok) summary.ok += 1;
        else {
          summary.failed += 1;
          summary.firstError ??= result.error;
        }
        summary.versionsAdded += result.versionsAdded;
      }
    });
    await Promise.all(workers);
    return summary;
  }

  /** Poll vendors as they fall due until stop() is called. No vendor's failure, nor the database's, ends it. */
  async run(): Promise<void> {
    const tickMs = this.options.tickMs ?? 1_000;
    while (!this.stopping) {
      let waitMs: number;
      try {
        waitMs = await this.startDuePolls(tickMs);
        this.scheduleFailures = 0;
      } catch (error) {
        this.scheduleFailures += 1;
        waitMs = Math.min(MAX_SCHEDULE_RETRY_MS, tickMs * 2 ** (this.scheduleFailures - 1));
        this.log(`poller: unable to read the schedule: ${errorMessage(error)}; trying again in ${seconds(waitMs)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
    await Promise.all([...this.inFlight.values(), ...this.pushInFlight.values()]);
  }

  /**
   * Renew the leases of the polls in flight, then claim and start the polls that are due in both
   * lanes; how long to sleep before looking again.
   */
  private async startDuePolls(tickMs: number): Promise<number> {
    let nowMs = Date.now();
    if (this.inFlight.size + this.pushInFlight.size > 0 && nowMs - this.renewedAtMs >= this.lease.renewEveryMs) {
      const polling = [...this.inFlight.keys(), ...this.pushInFlight.keys()];
      await renewLeases(this.db, this.lease.owner, polling, new Date(nowMs).toISOString(), new Date(nowMs + this.lease.leaseMs).toISOString());
      this.renewedAtMs = nowMs;
      nowMs = Date.now();
    }
    const heldBack = [...this.unsaved].filter(([, held]) => held.retryAtMs > nowMs);
    const busy = () => [...this.inFlight.keys(), ...this.pushInFlight.keys(), ...heldBack.map(([id]) => id)];
    const lease = { owner: this.lease.owner, now: new Date(nowMs).toISOString(), until: new Date(nowMs + this.lease.leaseMs).toISOString() };
    const free = this.options.concurrency - this.inFlight.size;
    if (free > 0) {
      const due = await claimDueVendors(this.db, {
        ...lease,
        limit: free,
        exclude: busy(),
        ...(this.options.onlySlug === undefined ? {} : { slug: this.options.onlySlug }),
      });
      for (const vendor of due) this.start(this.inFlight, vendor);
    }
    const pushFree = (this.options.pushConcurrency ?? 2) - this.pushInFlight.size;
    if (pushFree > 0 && this.options.onlySlug === undefined) {
      for (const id of await takeDuePushPolls(this.db, lease, pushFree, busy())) {
        const vendor = await getVendorById(this.db, id);
        if (vendor) this.start(this.pushInFlight, vendor);
      }
    }
    const full = this.inFlight.size >= this.options.concurrency;
    const nextScheduled = full ? null : await nextClaimableAt(this.db, this.lease.owner, busy(), this.options.onlySlug);
    const nextPush = this.pushInFlight.size >= (this.options.pushConcurrency ?? 2) ? null : await nextPushPollDue(this.db);
    const nextHeld = full || heldBack.length === 0 ? null : new Date(Math.min(...heldBack.map(([, held]) => held.retryAtMs))).toISOString();
    const next = [nextScheduled, nextPush, nextHeld].filter((d): d is string => d !== null).sort()[0] ?? null;
    const untilDue = next === null ? tickMs : Math.max(10, Date.parse(next) - Date.now());
    return Math.min(tickMs, untilDue);
  }

  private start(lane: Map<number, Promise<void>>, vendor: VendorRow): void {
    const task = this.pollOne(vendor)
      .then(
        () => undefined,
        (error: unknown) => this.holdBack(vendor, this.unsaved.get(vendor.id)?.consecutiveFailures ?? 0, `its poll failed unrecorded: ${errorMessage(error)}`),
      )
      .finally(() => {
        lane.delete(vendor.id);
        this.wake?.();
      });
    lane.set(vendor.id, task);
  }

  /** Stop scheduling; the polls in flight finish (each capture is recorded whole or not at all). */
  stop(): void {
    this.stopping = true;
    this.wake?.();
  }
}
