import type { RedlineDb } from "@/db/client";
import { mergeSearchStep, SEARCH_INDEXES, SEARCH_SEGMENT_LIMIT, type SearchIndex, searchSegmentCount } from "@/db/sqlite/search-upkeep";
import { DAY_MS, PeriodicTask } from "@/scrapers/poller/periodic-task";

export interface IndexUpkeep {
  before: number;
  after: number;
  steps: number;
}

/** What the upkeep did to each search index. */
export type SearchUpkeep = Record<SearchIndex, IndexUpkeep>;

const INDEX_NAMES: Record<SearchIndex, string> = { incident_search: "search index", version_search: "earlier-version index" };

async function tidyIndex(db: RedlineDb, index: SearchIndex): Promise<IndexUpkeep> {
  const sqlite = db.$client;
  const before = searchSegmentCount(sqlite, index);
  let steps = 0;
  if (before > SEARCH_SEGMENT_LIMIT) {
    while (mergeSearchStep(sqlite, index)) {
      steps += 1;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return { before, after: steps > 0 ? searchSegmentCount(sqlite, index) : before, steps };
}

/**
 * Merge each search index (the incidents' current text, the versions' edited-away text) into one
 * segment when it has drifted past SEARCH_SEGMENT_LIMIT, one short step at a time, letting polls
 * and page reads run between them (they share the file).
 */
export async function tidySearchIndex(db: RedlineDb): Promise<SearchUpkeep> {
  return { incident_search: await tidyIndex(db, "incident_search"), version_search: await tidyIndex(db, "version_search") };
}

export function describeSearchUpkeep(upkeep: SearchUpkeep): string {
  return SEARCH_INDEXES.map((index) => {
    const { before, after, steps } = upkeep[index];
    const what = steps > 0 ? `${before} segments merged into ${after} in ${steps} steps` : `${before} segments, left as they are`;
    return `${INDEX_NAMES[index]}: ${what}`;
  }).join("; ");
}

/** tidySearchIndex at once and once a day in a long-lived poller. */
export class SearchUpkeepTimer extends PeriodicTask {
  constructor(db: RedlineDb, log: (line: string) => void, intervalMs = DAY_MS) {
    super("search index", async () => describeSearchUpkeep(await tidySearchIndex(db)), log, intervalMs);
  }
}
