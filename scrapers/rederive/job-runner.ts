import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import type { RedlineDb } from "@/db/client";
import { claimJob, type DerivationJob, finishJob, finishJobIfUnchanged, getJob, listRecentJobs, noteJobHold, queueJob, releaseJob } from "@/db/operations/derivation-jobs";
import { getVendorById, listVendorsWithHistory } from "@/db/settings/vendors";
import type { PlatformResolver } from "@/scrapers/ingest/read-captures";
import { getPlatform } from "@/scrapers/platforms";
import { historyIsStale } from "@/scrapers/rederive/derived-with";
import { LeaseLostError, rebuildHistory, RebuildStoppedError } from "@/scrapers/rederive/rebuild-history";
import { replayFrom } from "@/scrapers/rederive/replay";
import { rerenderVersionTexts } from "@/db/history/version-text";
import { retentionRefusal } from "@/db/operations/raw-retention";
import { currentSummarizer } from "@/lib/summarize";

export interface RunnerOptions {
  /** Who holds the jobs this runner takes (a process id and host by default). */
  owner?: string;
  /** A job whose worker stopped renewing for this long is taken over by another. */
  leaseMs?: number;
  resolve?: PlatformResolver;
  /** Where scratch databases go: beside the database file by default. */
  scratchDir?: string;
  /** A late capture followed by at most this many is replayed in place, in one short transaction. */
  replayLimit?: number;
  applyBatch?: number;
  swapBatchBytes?: number;
  /** Pause between main-database transactions (ms). */
  pauseMs?: number;
  onProgress?: (job: DerivationJob) => void;
  log?: (line: string) => void;
  /** Stop between batches; a rebuild in progress resumes on the next run. */
  signal?: AbortSignal;
}

const DEFAULTS = { leaseMs: 60_000, replayLimit: 8, applyBatch: 50, swapBatchBytes: 256 * 1024, pauseMs: 5 };

/** Where a rebuild's scratch file goes: where asked, else where the archive's database keeps it. */
function scratchDirOf(db: RedlineDb, options: RunnerOptions): string {
  return options.scratchDir || db.connection.dialect.process.scratchFolder(db);
}

/** Run one claimed job to its end: a replay in place when it is small, otherwise a rebuild aside. */
export async function runJob(db: RedlineDb, job: DerivationJob, options: RunnerOptions = {}): Promise<void> {
  const owner = options.owner ?? defaultOwner();
  const resolve = options.resolve ?? getPlatform;
  const settings = { ...DEFAULTS, ...options };
  const vendor = await getVendorById(db, job.vendorId);
  if (!vendor) return;
  const refuse = async (from: string | null): Promise<boolean> => {
    const refusal = await retentionRefusal(db, vendor.id, from);
    if (refusal === null) return false;
    await finishJob(db, job.id, "failed", refusal);
    options.log?.(`rederive: ${vendor.slug}: not rebuilt: ${refusal}`);
    return true;
  };
  if (job.from !== null && job.status === "queued" && !historyIsStale(vendor, resolve)) {
    if (await refuse(job.from.observedAt)) return;
    const replayed = await replayFrom(db, vendor, job.from, settings.replayLimit, resolve);
    if (replayed) await noteJobHold(db, job.id, replayed.holdMs);
    if (replayed && (await finishJobIfUnchanged(db, job.id, job.requests))) {
      options.log?.(`rederive: ${vendor.slug}: replayed ${replayed.captures} captures from ${job.from.observedAt} (${replayed.versions} versions)`);
      return;
    }
    if (replayed) return;
  }
  // A whole rebuild starts after the pruned captures (db/history/seed.ts); one from an earlier capture cannot.
  if (job.from !== null && (await refuse(job.from.observedAt))) return;
  // Named for this job alone: another database's job of the same vendor and number may share the folder.
  const scratchPath = job.scratchPath ?? path.join(scratchDirOf(db, options), `redline-rebuild-${vendor.slug}-${job.id}-${randomBytes(6).toString("hex")}.db`);
  options.log?.(`rederive: ${vendor.slug}: rebuilding its history from ${job.capturesTotal || "all its"} captures (${job.reason})`);
  await rebuildHistory(db, vendor, job, scratchPath, {
    owner,
    leaseMs: settings.leaseMs,
    resolve,
    applyBatch: settings.applyBatch,
    swapBatchBytes: settings.swapBatchBytes,
    yield: () => new Promise((resolvePause) => setTimeout(resolvePause, settings.pauseMs)),
    onProgress: options.onProgress,
    onResume: (done, total) => options.log?.(`rederive: ${vendor.slug}: resuming the rebuild where it stopped, at capture ${done} of ${total}`),
    signal: options.signal,
  });
  const done = await getJob(db, job.id);
  options.log?.(`rederive: ${vendor.slug}: rebuilt (${done?.capturesDone ?? 0} captures, ${done?.incidentsSwapped ?? 0} incidents; write lock held at most ${done?.longestHoldMs ?? 0} ms at a time)`);
}

function defaultOwner(): string {
  return `${os.hostname()}:${process.pid}`;
}

/**
 * Jobs held by a process of this machine that is gone (killed, crashed) are let go at once rather
 * than when their lease runs out: the next worker resumes them where they stopped.
 */
async function releaseDeadLocalLeases(db: RedlineDb): Promise<void> {
  const prefix = `${os.hostname()}:`;
  for (const job of (await listRecentJobs(db, 100))) {
    if (!job.leaseOwner?.startsWith(prefix) || job.status === "done" || job.status === "failed") continue;
    const pid = Number(job.leaseOwner.slice(prefix.length));
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") await releaseJob(db, job.id, job.leaseOwner);
    }
  }
}

/**
 * Claim and run jobs until none is left (for one vendor, or any). A job that fails is marked
 * failed with its error, logged, and the next one runs. Returns how many jobs ran.
 */
export async function runPendingJobs(db: RedlineDb, options: RunnerOptions & { vendorId?: number } = {}): Promise<number> {
  const owner = options.owner ?? defaultOwner();
  await releaseDeadLocalLeases(db);
  let ran = 0;
  for (;;) {
    if (options.signal?.aborted) return ran;
    const job = await claimJob(db, owner, options.leaseMs ?? DEFAULTS.leaseMs, options.vendorId);
    if (!job) return ran;
    ran += 1;
    try {
      await runJob(db, job, { ...options, owner });
    } catch (error) {
      if (error instanceof RebuildStoppedError) {
        await releaseJob(db, job.id, owner);
        options.log?.(error.message);
        return ran;
      }
      if (error instanceof LeaseLostError) {
        options.log?.(error.message);
        continue;
      }
      const message = error instanceof Error ? error.message : String(error);
      await finishJob(db, job.id, "failed", message);
      options.log?.(`rederive: job ${job.id} of ${job.vendorSlug} failed: ${message}`);
    }
  }
}

/** Queue a rebuild for every vendor whose history older parsers or an older derivation made. */
export async function queueStaleRebuilds(db: RedlineDb, resolve: PlatformResolver = getPlatform): Promise<number> {
  let queued = 0;
  for (const vendor of (await listVendorsWithHistory(db))) {
    if (!historyIsStale(vendor, resolve)) continue;
    await queueJob(db, vendor.id, "parser-upgrade", null);
    queued += 1;
  }
  return queued;
}

/**
 * Runs re-derivation jobs in the background of a long-lived process (the poller), one at a
 * time, never inside a poll: it looks for work every `idleMs` and whenever woken.
 */
export class DerivationWorker {
  private stopping = false;
  private textsStale = true;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly abort = new AbortController();

  constructor(
    private readonly db: RedlineDb,
    private readonly options: RunnerOptions & { idleMs?: number } = {},
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  poke(): void {
    this.wake?.();
  }

  private async run(): Promise<void> {
    const log = this.options.log ?? ((line: string) => console.error(line));
    try {
      const queued = await queueStaleRebuilds(this.db, this.options.resolve);
      if (queued > 0) log(`rederive: ${queued} vendors' history was derived by older parsers: rebuilding in the background`);
    } catch (error) {
      log(`rederive: could not look for stale histories: ${error instanceof Error ? error.message : String(error)}`);
    }
    while (!this.stopping) {
      let rendered = 0;
      try {
        // A few incidents at a time, since the polls share this thread; none is written stale meanwhile.
        if (this.textsStale) rendered = await rerenderVersionTexts(this.db, currentSummarizer, 50, 1);
        this.textsStale = rendered > 0;
        await runPendingJobs(this.db, { ...this.options, log, signal: this.abort.signal });
      } catch (error) {
        log(`rederive: worker error: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (this.stopping) break;
      if (rendered > 0) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.idleMs ?? 1_000);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }

  /** Stop after the current batch; a job in progress resumes on the next start (its scratch is kept). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    this.wake?.();
    await this.loop;
  }
}
