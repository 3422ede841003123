import type { RedlineDb } from "@/db/driver/database";
import { type CaptureRow, writeStatements } from "@/db/record/write-statements";

/**
 * Consecutive observations of one source with the same outcome and content are one capture row,
 * a run: its first observation (observed_at, which capture order and the identity go by), its last
 * and how many. An unchanged poll updates the run in place and adds no row and no index entry.
 * Where an observation goes is decided in lib/derive/capture-place.ts; these are the writes.
 */

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
