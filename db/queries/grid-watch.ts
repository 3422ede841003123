import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { type ComponentPageFacts, gridSourcesOf } from "@/lib/components/component-page";
import { type CaptureRunFacts, extendWatch, longestWatchedGap, type SourceWatch, sourceWatchOf } from "@/lib/components/observed-time";
import type { NowRules } from "@/lib/now-rules";

/**
 * When a vendor's grid was watched, read from its grid sources' capture runs. A component page
 * needs a quarter of them (hundreds of runs on a page whose grid changes a few times a day, each
 * a row to read): the watch they add up to is kept per source and period start, and a page reads
 * only what says whether it still holds and the source's newest run, which unchanged polls extend.
 * It holds while no capture was recorded since (the newest capture id of all); when some was, while
 * the source's runs from that start are as many as then with the same newest id (the index alone
 * says so): every capture recorded adds a row, late ones too. A late observation that only makes
 * an older run longer adds none; it is seen when the source next records a capture or the day turns.
 */

/** Sources whose watches are kept, the least recently read dropped first. */
const KEPT_WATCHES = 4_000;

type CaptureRow = { id: number; first: string; last: string | null; observations: number; outcome: string };

const COLUMNS = `id, observed_at AS "first", last_observed_at AS "last", observations, outcome`;

const statements = statementsFor((c: Connection) => ({
  sources: c.prepare<[number], { source: string; platform: string }>(`SELECT url AS "source", platform FROM sources WHERE vendor_id = ? ORDER BY url`),
  newest: c.prepare<[number, string], CaptureRow>(`SELECT ${COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? ORDER BY observed_at DESC LIMIT 1`),
  lastGood: c.prepare<[number, string], { at: string }>(
    `SELECT coalesce(last_observed_at, observed_at) AS "at" FROM captures WHERE vendor_id = ? AND source = ? AND outcome IN ('ok', 'not-modified')
     ORDER BY observed_at DESC LIMIT 1`,
  ),
  // Whether a kept watch still holds: a capture recorded since (late ones too) adds a row from its start.
  recorded: c.prepare<[], { id: number | null }>(`SELECT max(id) AS "id" FROM captures`),
  extent: c.prepare<[number, string, string], { runs: number; newestId: number | null }>(
    `SELECT count(*) AS "runs", max(id) AS "newestId" FROM captures WHERE vendor_id = ? AND source = ? AND observed_at >= ?`,
  ),
  from: c.prepare<[number, string, string], CaptureRow>(`SELECT ${COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? AND observed_at >= ? ORDER BY observed_at`),
  // A run begun before the start that reaches into it (unchanged polls for days) places the start.
  // A source's runs follow one another (a capture inside a run splits it), so only its last before
  // the start can: one row sought, not every run of the source before it read.
  lastBefore: c.prepare<[number, string, string], CaptureRow>(`SELECT ${COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? AND observed_at < ? ORDER BY observed_at DESC LIMIT 1`),
}));

interface KeptWatch {
  /** The newest capture id of all when it was last found to hold. */
  recorded: number | null;
  runs: number;
  newestId: number | null;
  /** The watch of every run from the start but the newest (which unchanged polls extend). */
  watch: SourceWatch;
}

const kept = new WeakMap<Connection, Map<string, KeptWatch>>();

function keptOn(connection: Connection): Map<string, KeptWatch> {
  let map = kept.get(connection);
  if (!map) kept.set(connection, (map = new Map()));
  return map;
}

const isGood = (outcome: string) => outcome === "ok" || outcome === "not-modified";

function factsOf(source: string, row: CaptureRow): CaptureRunFacts {
  return { source, first: row.first, last: row.last ?? row.first, observations: row.observations, good: isGood(row.outcome) };
}

/** The start a watch is kept from: the day `since` falls in, so pages asked through a day share it. */
function keptStart(since: string): string {
  return `${since.slice(0, 10)}T00:00:00.000Z`;
}

/** Whether a run counts from `start`: begun by then, or begun before and observed again since. */
const reaches = (row: CaptureRow, start: string) => row.first >= start || (row.observations > 1 && row.last !== null && row.last >= start);

/** Every capture run of the source from `start`, the one reaching into it included. */
async function runsFrom(db: RedlineDb, vendorId: number, source: string, start: string): Promise<CaptureRow[]> {
  const st = statements(db);
  const before = await st.lastBefore.get(vendorId, source, start);
  return [...(before && reaches(before, start) ? [before] : []), ...(await st.from.all(vendorId, source, start))];
}

/** The watch of a source's runs from the day `since` falls in, from what is kept when it still holds. */
async function sourceWatch(db: RedlineDb, vendorId: number, source: string, since: string, maxGap: number, newestRow: CaptureRow | undefined): Promise<SourceWatch> {
  const st = statements(db);
  const start = keptStart(since);
  const newest = newestRow && reaches(newestRow, start) ? newestRow : undefined;
  const memo = keptOn(db.connection);
  const key = `${vendorId}\u0000${source}\u0000${start}\u0000${maxGap}`;
  const recorded = (await st.recorded.get())?.id ?? null;
  const held = memo.get(key);
  let extent: { runs: number; newestId: number | null } | undefined;
  if (held && held.recorded !== recorded) {
    extent = (await st.extent.get(vendorId, source, start)) ?? { runs: 0, newestId: null };
    if (held.runs === extent.runs && held.newestId === extent.newestId) held.recorded = recorded;
  }
  if (held && held.recorded === recorded) {
    memo.delete(key);
    memo.set(key, held);
    const watch = newest ? extendWatch(held.watch, factsOf(source, newest), maxGap) : held.watch;
    if (watch) return watch;
  }
  const { runs, newestId } = extent ?? (await st.extent.get(vendorId, source, start)) ?? { runs: 0, newestId: null };
  const rows = await runsFrom(db, vendorId, source, start);
  // The newest run is added on each read: unchanged polls extend it without adding a row.
  const older = rows.filter((r) => r.id !== newest?.id).map((r) => factsOf(source, r));
  const watch = sourceWatchOf(older, maxGap);
  memo.delete(key);
  memo.set(key, { recorded, runs, newestId, watch });
  if (memo.size > KEPT_WATCHES) memo.delete(memo.keys().next().value as string);
  if (!newest) return watch;
  return extendWatch(watch, factsOf(source, newest), maxGap) ?? sourceWatchOf([...older, factsOf(source, newest)], maxGap);
}

/** The grid sources of a vendor with their last captures, and the watch of each from `since` (the run reaching into it included). */
export async function loadGridObservations(
  db: RedlineDb,
  vendorId: number,
  since: string,
  options: { profileOf: NowRules["profileOf"]; intervalMs: number },
): Promise<{ gridSources: ComponentPageFacts["gridSources"]; watches: SourceWatch[] }> {
  const st = statements(db);
  const maxGap = longestWatchedGap(options.intervalMs);
  const gridSources: ComponentPageFacts["gridSources"] = [];
  const watches: SourceWatch[] = [];
  for (const source of gridSourcesOf(await st.sources.all(vendorId), options.profileOf)) {
    const newest = await st.newest.get(vendorId, source.source);
    const good = newest && isGood(newest.outcome) ? (newest.last ?? newest.first) : ((await st.lastGood.get(vendorId, source.source))?.at ?? null);
    gridSources.push({ ...source, lastGoodAt: good, lastAttemptAt: newest ? (newest.last ?? newest.first) : null, lastOutcome: newest?.outcome ?? null });
    watches.push(await sourceWatch(db, vendorId, source.source, since, maxGap, newest));
  }
  return { gridSources, watches };
}
