import type { RedlineDb } from "@/db/driver/database";
import { transact } from "@/db/driver/transaction";
import { finishJob, queueJob } from "@/db/operations/derivation-jobs";
import { applyCapture, type PlatformResolver, type ReadCapture } from "@/db/record/apply";
import { appliedThrough } from "@/db/record/record-capture";
import { type CaptureRow, writeStatements } from "@/db/record/write-statements";
import { setDerivedWith } from "@/db/settings/vendors";
import { swapAppliedThrough, swapCaptureReadings, swapComponents, swapIncidents } from "@/db/history/swap";
import { type CaptureKey, compareCaptureKeys } from "@/lib/derive/capture-key";
import type { DerivedWith } from "@/lib/derive/derivation-version";

/**
 * The main database's side of a rebuild (scrapers/rederive/rebuild-history.ts), each step one
 * short transaction holding the write lock: swapping in a batch of rebuilt incidents, the
 * captures' new readings, the components and where the history was applied through, and applying
 * what was recorded while the swap ran.
 */

/** Swap in the rebuilt history of these incidents. */
export async function swapIncidentBatch(main: RedlineDb, scratch: RedlineDb, vendorId: number, providerIds: readonly string[]): Promise<number> {
  return transact(main, () => swapIncidents(main, scratch, vendorId, providerIds), { immediate: true });
}

/** Give a batch of captures their new reading (outcome, warnings) from the scratch. */
export async function swapReadingBatch(main: RedlineDb, scratch: RedlineDb, vendorId: number, afterId: number, limit: number): Promise<{ lastId: number; count: number }> {
  return transact(main, () => swapCaptureReadings(main, scratch, vendorId, afterId, limit), { immediate: true });
}

/** Swap in the rebuilt components and applied-through point, and mark the parsers the history is now derived with. */
export async function finishSwap(main: RedlineDb, scratch: RedlineDb, vendorId: number, derivedWith: () => Promise<DerivedWith>): Promise<void> {
  await transact(main, async () => {
    await swapComponents(main, scratch, vendorId);
    await swapAppliedThrough(main, scratch, vendorId);
    await setDerivedWith(main, vendorId, await derivedWith());
  }, { immediate: true });
}

/**
 * Apply, in order, a batch of captures recorded while the swap ran (read again as `reads`), and
 * when it is the last batch finish the job in the same transaction, queueing a job of its own for
 * a capture that arrived after a later one. Null when the captures after `cursor` changed since
 * they were read; false when more follow; true when the job is done.
 */
export async function applyPendingBatch(
  main: RedlineDb,
  vendor: { id: number; name: string },
  job: { id: number; copiedThrough: number },
  cursor: CaptureKey,
  rows: readonly CaptureRow[],
  reads: readonly ReadCapture[],
  batch: number,
  resolve: PlatformResolver,
): Promise<boolean | null> {
  const st = writeStatements(main);
  return transact(main, async (): Promise<boolean | null> => {
    const now = await st.capturesAfter.all(vendor.id, cursor.observedAt, cursor.source, cursor.hash, batch);
    if (now.length !== rows.length || now.some((r, i) => r.id !== rows[i]?.id)) return null;
    for (const capture of reads) await applyCapture(main, vendor, capture, resolve);
    if (rows.length === batch) return false;
    await finishJob(main, job.id, "done");
    const applied = await appliedThrough(main, vendor.id);
    const late = (await st.captureKeysAfterId.all(vendor.id, job.copiedThrough)).find((k) => applied !== null && compareCaptureKeys(k, applied) < 0 && !rows.some((r) => r.observedAt === k.observedAt && r.source === k.source && r.hash === k.hash));
    if (late) await queueJob(main, vendor.id, "late-capture", late);
    return true;
  }, { immediate: true });
}
