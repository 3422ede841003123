import type { RedlineDb } from "@/db/client";
import { pruneRawBatch, type RetentionSummary, retentionHorizon } from "@/db/raw-retention";

const DAY_MS = 86_400_000;

/**
 * Apply REDLINE_KEEP_RAW_DAYS now and, in a long-lived poller, once a day: one short transaction
 * at a time, letting polls run between them (they share this thread).
 */
export async function applyRawRetention(db: RedlineDb, days: number, now = new Date()): Promise<RetentionSummary> {
  const options = { before: retentionHorizon(days, now), now: now.toISOString() };
  const summary: RetentionSummary = { captures: 0, bodies: 0, rebased: 0 };
  let afterId: number | null = 0;
  while (afterId !== null) {
    afterId = pruneRawBatch(db, options, afterId, summary);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return summary;
}

export function describeRetention(days: number, summary: RetentionSummary): string {
  return `retention: raw bodies older than ${days} days: ${summary.captures} captures lost their body, ${summary.bodies} bodies deleted, ${summary.rebased} stored whole again`;
}

/** Runs applyRawRetention at once and every `intervalMs`; stop() waits for a run in progress. */
export class RawRetentionTimer {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: RedlineDb,
    private readonly days: number,
    private readonly log: (line: string) => void,
    private readonly intervalMs = DAY_MS,
  ) {}

  start(): void {
    this.run();
    this.timer = setInterval(() => this.run(), this.intervalMs);
    this.timer.unref();
  }

  private run(): void {
    this.running = this.running.then(async () => {
      try {
        this.log(describeRetention(this.days, await applyRawRetention(this.db, this.days)));
      } catch (error) {
        this.log(`retention: failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
