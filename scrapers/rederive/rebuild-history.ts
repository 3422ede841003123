import fs from "node:fs";
import { bodyReader } from "@/db/history/capture-bodies";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { type DerivationJob, noteJobHold, renewLease, saveJobProgress } from "@/db/operations/derivation-jobs";
import { rebuildStart, seedScratchFromHistory } from "@/db/history/seed";
import { copyCaptureRows, maxCaptureId, scratchIncidentWeights, seedScratch, swapCandidates } from "@/db/history/swap";
import { type CaptureKey, compareCaptureKeys } from "@/db/record/prior-state";
import { appliedThrough } from "@/db/record/record-capture";
import { type CaptureRow, writeStatements } from "@/db/record/write-statements";
import type { VendorRow } from "@/db/settings/vendors";
import { applyStoredCapture, rewindFrom } from "@/db/record/record";
import { applyPendingBatch, finishSwap, swapIncidentBatch, swapReadingBatch } from "@/db/history/rebuild-steps";
import type { ReadCapture } from "@/db/record/apply";
import { type PlatformResolver, readStoredCapture } from "@/scrapers/ingest/read-captures";
import { currentDerivedWith } from "@/scrapers/rederive/derived-with";

export interface RebuildOptions {
  owner: string;
  leaseMs: number;
  resolve: PlatformResolver;
  /** Captures read and applied per scratch transaction (the scratch is private: no reader waits on it). */
  applyBatch: number;
  /** Roughly how many bytes (versions and record states) one swap transaction on the main database may copy: it holds the write lock meanwhile. */
  swapBatchBytes: number;
  /** Paused between main-database transactions, so other writers get their turn. */
  yield: () => Promise<void>;
  onProgress?: (job: DerivationJob) => void;
  /** Called when a scratch left by an earlier run is taken up again, with how far it had come. */
  onResume?: (done: number, total: number) => void;
  /** Stop between batches (the scratch is kept, and the job resumes on the next run). */
  signal?: AbortSignal;
}

export class LeaseLostError extends Error {
  readonly kind = "lease-lost";
}

export class RebuildStoppedError extends Error {
  readonly kind = "stopped";
}

const FIRST: CaptureKey = { observedAt: "", source: "", hash: "" };
const COPY_BATCH = 1_000;
/** Capture rows given their new reading per main transaction. */
const CAPTURE_READINGS_BATCH = 500;
/** Captures recorded during the swap, applied per main transaction afterwards. */
const PENDING_BATCH = 8;
/** Longest stretch of work between two yields to the event loop the rebuild shares with polls. */
const SLICE_MS = 20;

/**
 * Rebuild a vendor's whole history from its raw captures, aside: derived into a scratch database
 * (whose writes never hold the main database's lock), then swapped in incident by incident, each
 * swap a short transaction. Pages keep showing the old history until each incident's new one is
 * in. Polls go on meanwhile: until the swap starts their captures are applied as usual (and
 * replayed into the scratch); during it they are recorded and applied after it, in order. The
 * scratch file survives a restart and the job resumes where it stopped.
 */
export async function rebuildHistory(main: RedlineDb, vendor: VendorRow, job: DerivationJob, scratchPath: string, options: RebuildOptions): Promise<void> {
  const progress = { ...job, scratchPath, status: job.status === "swapping" ? ("swapping" as const) : ("building" as const) };
  /** A transaction on the main database, timed: how long it holds the write lock is the job's figure of merit. */
  const onMain = async <T>(step: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await step();
    } finally {
      progress.longestHoldMs = Math.max(progress.longestHoldMs, Math.round(performance.now() - started));
    }
  };
  const save = async () => {
    if (options.signal?.aborted) throw new RebuildStoppedError(`rederive: job ${job.id} of ${vendor.slug} stopped; it resumes where it left off`);
    if (!(await renewLease(main, job.id, options.owner, options.leaseMs))) throw new LeaseLostError(`rederive: job ${job.id} of ${vendor.slug} was taken over by another worker`);
    await saveJobProgress(main, progress);
    options.onProgress?.({ ...job, ...progress });
  };
  progress.capturesTotal = await countCaptures(main, vendor.id);
  await save();
  // Only a scratch this job recorded is its own to resume; any other file there is not built from this database.
  const resuming = job.scratchPath === scratchPath && fs.existsSync(scratchPath);
  if (!resuming) for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${scratchPath}${suffix}`, { force: true });
  const scratch = openDatabase(scratchPath);
  const bodyOf = bodyReader(main);
  try {
    await seedScratch(main, scratch, vendor.id);
    // Retention removed the oldest bodies: derive again only from the first capture after them.
    const start = await rebuildStart(main, vendor.id);
    if (start.pruned && (await maxCaptureId(scratch, vendor.id)) === 0) await seedScratchFromHistory(main, scratch, vendor.id, start.from);
    let copiedThrough = await maxCaptureId(scratch, vendor.id);
    progress.capturesDone = await countAppliedCaptures(scratch, vendor.id);
    if (resuming) options.onResume?.(progress.capturesDone, progress.capturesTotal);

    const build = async () => {
      for (;;) {
        const copy = await copyCaptureRows(main, scratch, vendor.id, copiedThrough, COPY_BATCH);
        if (copy.copied > 0) {
          copiedThrough = copy.lastId;
          // A capture recorded after a later one was applied in the scratch: rewind it there and go on.
          const applied = await appliedThrough(scratch, vendor.id);
          const late = applied === null ? undefined : copy.rows.filter((r) => compareCaptureKeys(r, applied) < 0).sort(compareCaptureKeys)[0];
          if (late && start.pruned && (start.from === null || compareCaptureKeys(late, start.from) < 0)) {
            throw new Error(`retention: a capture of ${late.observedAt} arrived among captures whose raw bodies were deleted; it cannot be derived in order`);
          }
          if (late) await rewindFrom(scratch, vendor.id, late);
          continue;
        }
        const applied = await appliedThrough(scratch, vendor.id);
        const st = writeStatements(scratch);
        const from = applied ?? FIRST;
        const rows: CaptureRow[] = applied === null
          ? await st.capturesFrom.all(vendor.id, from.observedAt, from.source, from.hash, options.applyBatch)
          : await st.capturesAfter.all(vendor.id, from.observedAt, from.source, from.hash, options.applyBatch);
        if (rows.length === 0) return;
        // One capture at a time, yielding often: the process also polls, and its polls must not wait.
        let slice = performance.now();
        for (const row of rows) {
          const capture = await readStoredCapture(row, vendor.slug, bodyOf, options.resolve);
          await applyStoredCapture(scratch, vendor, capture, options.resolve);
          progress.capturesDone = Math.min(progress.capturesTotal, progress.capturesDone + 1);
          if (performance.now() - slice > SLICE_MS) {
            await options.yield();
            slice = performance.now();
          }
        }
        progress.capturesTotal = Math.max(progress.capturesTotal, await countCaptures(main, vendor.id));
        await save();
        await options.yield();
      }
    };

    await build();
    // From here the main database records new captures without applying them, so that nothing
    // applied there is lost in the swap; what arrived before the switch is caught up first.
    progress.status = "swapping";
    await save();
    await build();
    await swap(main, scratch, vendor, progress, save, options, onMain);
    await onMain(() => finishSwap(main, scratch, vendor.id, () => currentDerivedWith(main, vendor.id, options.resolve)));
    await applyPending(main, vendor, job, copiedThrough, options, onMain);
    await noteJobHold(main, job.id, progress.longestHoldMs);
  } finally {
    closeDatabase(scratch);
  }
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${scratchPath}${suffix}`, { force: true });
}

/** Captures up to the database's applied-through point: how far a scratch has come. */
async function countAppliedCaptures(db: RedlineDb, vendorId: number): Promise<number> {
  const applied = await appliedThrough(db, vendorId);
  if (applied === null) return 0;
  return (await writeStatements(db).captureCountThrough.get(vendorId, applied.observedAt, applied.source, applied.hash))?.n ?? 0;
}

async function countCaptures(db: RedlineDb, vendorId: number): Promise<number> {
  return (await writeStatements(db).captureCount.get(vendorId))?.n ?? 0;
}

type OnMain = <T>(work: () => Promise<T>) => Promise<T>;

async function swap(
  main: RedlineDb, scratch: RedlineDb, vendor: VendorRow, progress: { incidentsSwapped: number }, save: () => Promise<void>, options: RebuildOptions, onMain: OnMain,
): Promise<void> {
  const ids = await swapCandidates(main, scratch, vendor.id);
  const weights = await scratchIncidentWeights(scratch, vendor.id);
  let start = 0;
  while (start < ids.length) {
    // Grow the batch until it would copy about swapBatchBytes.
    let end = start + 1;
    let bytes = weights.get(ids[start] ?? "") ?? 0;
    while (end < ids.length && end - start < 200 && bytes + (weights.get(ids[end] ?? "") ?? 0) <= options.swapBatchBytes) {
      bytes += weights.get(ids[end] ?? "") ?? 0;
      end += 1;
    }
    const batch = ids.slice(start, end);
    await onMain(() => swapIncidentBatch(main, scratch, vendor.id, batch));
    progress.incidentsSwapped += batch.length;
    start = end;
    await save();
    await options.yield();
  }
  let after = 0;
  for (;;) {
    const moved = await onMain(() => swapReadingBatch(main, scratch, vendor.id, after, CAPTURE_READINGS_BATCH));
    if (moved.count === 0) break;
    after = moved.lastId;
    await options.yield();
  }
}

/**
 * Apply, in order, what was recorded while the swap ran, then finish the job in the same
 * transaction as the last of them. A capture that arrived after a later one is left to a job of its own.
 */
async function applyPending(main: RedlineDb, vendor: VendorRow, job: DerivationJob, copiedThrough: number, options: RebuildOptions, onMain: OnMain): Promise<void> {
  const st = writeStatements(main);
  for (;;) {
    const cursor = (await appliedThrough(main, vendor.id)) ?? FIRST;
    const rows = await st.capturesAfter.all(vendor.id, cursor.observedAt, cursor.source, cursor.hash, PENDING_BATCH);
    const reads: ReadCapture[] = [];
    for (const row of rows) reads.push(await readStoredCapture(row, vendor.slug, bodyReader(main), options.resolve));
    const finished = await onMain(() => applyPendingBatch(main, vendor, { id: job.id, copiedThrough }, cursor, rows, reads, PENDING_BATCH, options.resolve));
    if (finished === true) return;
    if (finished === false) await options.yield();
  }
}
