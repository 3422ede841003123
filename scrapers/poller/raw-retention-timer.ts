import type { RedlineDb } from "@/db/client";
import { pruneRawBatch, type RetentionSummary, retentionHorizon } from "@/db/operations/raw-retention";
import { DAY_MS, PeriodicTask } from "@/scrapers/poller/periodic-task";

/**
 * Apply REDLINE_KEEP_RAW_DAYS now and, in a long-lived poller, once a day: one short transaction
 * at a time, letting polls run between them (they share this thread).
 */
export async function applyRawRetention(db: RedlineDb, days: number, now = new Date()): Promise<RetentionSummary> {
  const options = { before: retentionHorizon(days, now), now: now.toISOString() };
  const summary: RetentionSummary = { captures: 0, bodies: 0, rebased: 0 };
  let afterId: number | null = 0;
  while (afterId !== null) {
    afterId = await pruneRawBatch(db, options, afterId, summary);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return summary;
}

export function describeRetention(days: number, summary: RetentionSummary): string {
  return `retention: raw bodies older than ${days} days: ${summary.captures} captures lost their body, ${summary.bodies} bodies deleted, ${summary.rebased} stored whole again`;
}

/** Runs applyRawRetention at once and every `intervalMs`; stop() waits for a run in progress. */
export class RawRetentionTimer extends PeriodicTask {
  constructor(db: RedlineDb, days: number, log: (line: string) => void, intervalMs = DAY_MS) {
    super("retention", async () => describeRetention(days, await applyRawRetention(db, days)), log, intervalMs);
  }
}
