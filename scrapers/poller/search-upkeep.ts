import type { RedlineDb } from "@/db/client";
import { mergeSearchStep, SEARCH_SEGMENT_LIMIT, searchSegmentCount } from "@/db/search-upkeep";
import { DAY_MS, PeriodicTask } from "@/scrapers/poller/periodic-task";

export interface SearchUpkeep {
  before: number;
  after: number;
  steps: number;
}

/**
 * Merge the search index into one segment when it has drifted past SEARCH_SEGMENT_LIMIT, one
 * short step at a time, letting polls and page reads run between them (they share the file).
 */
export async function tidySearchIndex(db: RedlineDb): Promise<SearchUpkeep> {
  const sqlite = db.$client;
  const before = searchSegmentCount(sqlite);
  let steps = 0;
  if (before > SEARCH_SEGMENT_LIMIT) {
    while (mergeSearchStep(sqlite)) {
      steps += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return { before, after: steps > 0 ? searchSegmentCount(sqlite) : before, steps };
}

export function describeSearchUpkeep(upkeep: SearchUpkeep): string {
  return upkeep.steps > 0
    ? `search index: ${upkeep.before} segments merged into ${upkeep.after} in ${upkeep.steps} steps`
    : `search index: ${upkeep.before} segments, left as they are`;
}

/** tidySearchIndex at once and once a day in a long-lived poller. */
export class SearchUpkeepTimer extends PeriodicTask {
  constructor(db: RedlineDb, log: (line: string) => void, intervalMs = DAY_MS) {
    super("search index", async () => describeSearchUpkeep(await tidySearchIndex(db)), log, intervalMs);
  }
}
