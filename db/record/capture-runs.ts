import type { RedlineDb } from "@/db/driver/database";
import { getActiveJob } from "@/db/operations/derivation-jobs";
import { saveSource, type SourceRow } from "@/db/operations/poll-state";
import { type CaptureInput, insertCapture } from "@/db/record/record-capture";
import type { CaptureOutcome } from "@/db/schema";
import { transact } from "@/db/driver/transaction";
import { type CaptureRow, writeStatements } from "@/db/record/write-statements";

/**
 * Consecutive observations of one source with the same outcome and content are one capture row,
 * a run: its first observation (observed_at, which capture order and the identity go by), its last
 * and how many. An unchanged poll updates the run in place and adds no row and no index entry.
 */

export interface Observation {
  vendorId: number;
  source: string;
  observedAt: string;
  hash: string;
  outcome: CaptureOutcome;
  error: string | null;
}

export type Placement =
  /** Already recorded: at that time, or inside a run of the same content (a re-import). */
  | { kind: "duplicate"; outcome: CaptureOutcome; error: string | null }
  /** The source's latest run, of the same outcome and content: the observation may continue it. */
  | { kind: "continues"; run: CaptureRow }
  | { kind: "new" };

function sameContent(run: CaptureRow, o: Pick<Observation, "hash" | "outcome" | "error">): boolean {
  return run.hash === o.hash && run.outcome === o.outcome && run.error === o.error;
}

/** The source's run at or before `observedAt`, and whether it is the source's latest. */
async function runAtOrBefore(db: RedlineDb, vendorId: number, source: string, observedAt: string): Promise<{ run: CaptureRow; latest: boolean } | null> {
  const st = writeStatements(db);
  const latest = await st.sourceLatest.get(vendorId, source);
  if (!latest) return null;
  if (latest.observedAt <= observedAt) return { run: latest, latest: true };
  const run = await st.sourceAtOrBefore.get(vendorId, source, observedAt);
  return run ? { run, latest: false } : null;
}

/** How a capture recorded before went, when this observation of this content is already recorded. */
export async function findRecordedObservation(db: RedlineDb, vendorId: number, source: string, observedAt: string, hash: string): Promise<{ outcome: CaptureOutcome; error: string | null } | undefined> {
  const exact = await writeStatements(db).captureByKey.get(vendorId, source, observedAt, hash);
  if (exact) return { outcome: exact.outcome, error: exact.error };
  const found = await runAtOrBefore(db, vendorId, source, observedAt);
  if (found && found.run.hash === hash && observedAt <= found.run.lastObservedAt) return { outcome: found.run.outcome, error: found.run.error };
  return undefined;
}

/**
 * Where an observation goes. One of other content inside a run of its source splits the run: the
 * observations between are not kept one by one, so the run's first stays before it and its last
 * becomes a run of its own after it. Runs inside the caller's transaction.
 */
export async function placeObservation(db: RedlineDb, o: Observation): Promise<Placement> {
  const found = await runAtOrBefore(db, o.vendorId, o.source, o.observedAt);
  if (!found) return { kind: "new" };
  const { run, latest } = found;
  if (o.observedAt <= run.lastObservedAt) {
    if (sameContent(run, o)) return { kind: "duplicate", outcome: run.outcome, error: run.error };
    if (o.observedAt > run.observedAt && o.observedAt < run.lastObservedAt) await splitRun(db, run);
    return { kind: "new" };
  }
  return latest && sameContent(run, o) ? { kind: "continues", run } : { kind: "new" };
}

/** Cut a run to its first observation; its last becomes a run of its own holding the rest. */
export async function splitRun(db: RedlineDb, run: CaptureRow): Promise<void> {
  const st = writeStatements(db);
  await st.endRunAtFirst.run(run.id);
  await st.copyRunTail.run(run.lastObservedAt, run.lastObservedAt, run.observations - 1, new Date().toISOString(), run.id);
}

/**
 * A capture that arrives late, inside a run of good snapshots of another source, goes between
 * observations that were applied: the run is split so that its last is applied again after it.
 */
export async function splitGoodRunsAround(db: RedlineDb, vendorId: number, observedAt: string): Promise<void> {
  for (const run of await writeStatements(db).okRunsSpanning.all(vendorId, observedAt, observedAt)) await splitRun(db, run);
}

export async function continueRun(db: RedlineDb, run: CaptureRow, observedAt: string): Promise<void> {
  await writeStatements(db).extendRun.run(observedAt, run.id);
}

/**
 * Whether a run of content-serving observations (good or not-modified) may be continued. A capture
 * of another source whose derivation read this source's standing saw the run end where it then
 * ended, and re-derivation must see the same. While the vendor's history is being rebuilt aside,
 * new observations get rows of their own, which the rebuild copies.
 */
export async function mayContinueServingRun(db: RedlineDb, vendorId: number, run: CaptureRow): Promise<boolean> {
  const read = await writeStatements(db).standingsRead.get(vendorId);
  if (read?.at && (read.at > run.lastObservedAt || (read.at === run.lastObservedAt && read.by !== run.source))) return false;
  const job = (await getActiveJob(db, vendorId))?.status;
  return job !== "building" && job !== "swapping";
}

/** Note that a capture of `source` at `observedAt` read the standing of the vendor's other sources. */
export async function markStandingsRead(db: RedlineDb, vendorId: number, source: string, observedAt: string): Promise<void> {
  await writeStatements(db).markStandingsRead.run({ at: observedAt, by: source, id: vendorId });
}

/**
 * Record an observation that is not applied to the history (not-modified, failed, invalid): it
 * continues its source's run when it can, else gets a row. Null when it was recorded before.
 */
export async function recordObservation(db: RedlineDb, input: CaptureInput): Promise<number | null> {
  return transact(db, async (): Promise<number | null> => {
    const placement = await placeObservation(db, input);
    if (placement.kind === "duplicate") return null;
    if (placement.kind === "continues") {
      const { run } = placement;
      // Failures contribute nothing to derivation; a not-modified run says when the source last served.
      if (run.outcome !== "not-modified" || (await mayContinueServingRun(db, input.vendorId, run))) {
        await continueRun(db, run, input.observedAt);
        return run.id;
      }
    }
    return insertCapture(db, input);
  }, { immediate: true });
}

/** A fetch that is not parsed (failed, or the body last received), with what the source's next conditional GET needs. */
export interface UnparsedFetch {
  capture: CaptureInput;
  source: Omit<SourceRow, "id">;
}

/**
 * Record fetches that are not parsed, in the order given, in one transaction: a vendor's round of
 * unchanged endpoints costs one commit.
 */
export async function recordFetches(db: RedlineDb, fetches: readonly UnparsedFetch[]): Promise<void> {
  if (fetches.length === 0) return;
  await transact(db, async () => {
    for (const { capture, source } of fetches) {
      await recordObservation(db, capture);
      await saveSource(db, source);
    }
  }, { immediate: true });
}
