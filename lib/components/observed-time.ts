import { STALE_AFTER_INTERVALS } from "@/lib/vendor-now";

/**
 * When Redline watched a status page's grid and when it did not: from the captures of the sources
 * that state (or name) its components. Between two good captures of a source the page was watched
 * when they are at most a few poll intervals apart and no capture failed between them; before the
 * first, after a long silence and around a failure it was not, and nothing there may be counted
 * as operational. Pure: the store gives the captures.
 */

/** A capture run as the store keeps it: its first and last observation, how many, and whether it was good. */
export interface CaptureRunFacts {
  source: string;
  /** ISO instants of its first and last observation. */
  first: string;
  last: string;
  observations: number;
  /** ok or not-modified: the page was read. */
  good: boolean;
}

/** A stretch of time as epoch milliseconds, `from` ≤ `to`; a point when they are equal. */
export interface Span {
  from: number;
  to: number;
}

export type UnobservedReason = "failed" | "gap";

export interface UnobservedSpan extends Span {
  /** "failed": a capture failed in it; "gap": no good capture for longer than the poll rule allows. */
  reason: UnobservedReason;
}

export interface ObservedTime {
  /** Disjoint, in time order; points are good captures with no watched time on either side. */
  observed: Span[];
  /** The rest of the period, in time order. */
  unobserved: UnobservedSpan[];
}

/** How far apart two good captures may be for the time between them to count as watched. */
export function longestWatchedGap(intervalMs: number): number {
  return STALE_AFTER_INTERVALS * intervalMs;
}

/**
 * One source's watched stretches as its capture runs place them, before `now` extends the last:
 * what the runs say, so a reader may keep it and add the runs that come after.
 */
export interface SourceWatch {
  /** Disjoint, in time order. */
  spans: Span[];
  failures: Span[];
  /** The last observation of the runs it was worked out from (epoch ms); -Infinity for none. */
  through: number;
}

export const NO_WATCH: SourceWatch = { spans: [], failures: [], through: -Infinity };

/** The pieces of time a good run covers: all of it when its observations are close enough together, else its two ends. */
function piecesOf(run: CaptureRunFacts, maxGap: number): Span[] {
  const from = Date.parse(run.first);
  const to = Date.parse(run.last);
  // A run keeps no instant between its first and last observation: it is watched throughout
  // only if its observations are, on average, close enough together.
  const dense = run.observations > 1 && (to - from) / (run.observations - 1) <= maxGap;
  return dense || from === to ? [{ from, to }] : [{ from, to: from }, { from: to, to }];
}

const failedBetween = (failures: readonly Span[], a: number, b: number) => failures.some((f) => f.to > a && f.from < b);

/** Adds pieces in time order to joined spans (its own copy), joined where nothing failed between them and none is too far from the last. */
function joinPieces(joined: Span[], pieces: readonly Span[], failures: readonly Span[], maxGap: number): void {
  for (const piece of pieces) {
    const last = joined.at(-1);
    if (last && piece.from <= last.to) last.to = Math.max(last.to, piece.to);
    else if (last && piece.from - last.to <= maxGap && !failedBetween(failures, last.to, piece.from)) last.to = Math.max(last.to, piece.to);
    else joined.push({ ...piece });
  }
}

/** The stretches one source's capture runs (in any order) cover. */
export function sourceWatchOf(runs: readonly CaptureRunFacts[], maxGap: number): SourceWatch {
  const pieces: Span[] = [];
  const failures: Span[] = [];
  let through = -Infinity;
  for (const run of runs) {
    through = Math.max(through, Date.parse(run.last));
    if (run.good) pieces.push(...piecesOf(run, maxGap));
    else failures.push({ from: Date.parse(run.first), to: Date.parse(run.last) });
  }
  pieces.sort((a, b) => a.from - b.from || a.to - b.to);
  const spans: Span[] = [];
  joinPieces(spans, pieces, failures, maxGap);
  return { spans, failures, through };
}

/**
 * A watch with a later run of its source added: the same as working it out again from all the runs,
 * the kept watch untouched. Undefined when the run does not begin after every run already in it
 * (a late capture): work it out again then.
 */
export function extendWatch(watch: SourceWatch, run: CaptureRunFacts, maxGap: number): SourceWatch | undefined {
  const from = Date.parse(run.first);
  if (!(from > watch.through)) return undefined;
  const through = Date.parse(run.last);
  if (!run.good) return { spans: watch.spans, failures: [...watch.failures, { from, to: through }], through };
  const last = watch.spans.at(-1);
  const spans = last ? [...watch.spans.slice(0, -1), { ...last }] : [];
  joinPieces(spans, piecesOf(run, maxGap), watch.failures, maxGap);
  return { spans, failures: watch.failures, through };
}

/** A source's watched stretches as of `now`: since its last good capture it is watched while the next poll is not yet overdue and none has failed. */
function spansAsOf(watch: SourceWatch, maxGap: number, now: number): Span[] {
  const tail = watch.spans.at(-1);
  if (!tail || !(now > tail.to && now - tail.to <= maxGap && !failedBetween(watch.failures, tail.to, now))) return watch.spans;
  return [...watch.spans.slice(0, -1), { from: tail.from, to: now }];
}

/** Spans as one disjoint list in time order (overlapping or touching ones joined). */
export function unionOf(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.from - b.from || a.to - b.to);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.from <= last.to) last.to = Math.max(last.to, s.to);
    else out.push({ ...s });
  }
  return out;
}

/** What the capture runs say was watched, and where captures failed: worked out once for any number of periods. */
export interface WatchedTime {
  /** Disjoint, in time order. */
  watched: Span[];
  failures: Span[];
}

/** The watched time of the capture runs of the sources that state the grid, each source's poll interval being `intervalMs`. */
export function watchedTimeOf(runs: readonly CaptureRunFacts[], options: { intervalMs: number; now: number }): WatchedTime {
  return watchedTimeOfSources(watchesOf(runs, options.intervalMs), options);
}

/** The watch of each source of the capture runs, each source's poll interval being `intervalMs`. */
export function watchesOf(runs: readonly CaptureRunFacts[], intervalMs: number): SourceWatch[] {
  const bySource = new Map<string, CaptureRunFacts[]>();
  for (const run of runs) {
    const list = bySource.get(run.source) ?? [];
    list.push(run);
    bySource.set(run.source, list);
  }
  return [...bySource.values()].map((list) => sourceWatchOf(list, longestWatchedGap(intervalMs)));
}

/** The watched time of the grid sources' watches, as of `now`. */
export function watchedTimeOfSources(watches: readonly SourceWatch[], options: { intervalMs: number; now: number }): WatchedTime {
  const maxGap = longestWatchedGap(options.intervalMs);
  const watched = unionOf(watches.flatMap((w) => spansAsOf(w, maxGap, options.now)));
  return { watched, failures: watches.flatMap((w) => w.failures) };
}

/**
 * The watched and unwatched time of [from, to) (epoch ms; `to` is at most `now`), from the capture
 * runs of the sources that state the grid (runs before `from` included, so the period's start is
 * placed), each source's poll interval being `intervalMs`.
 */
export function observedTimeOf(runs: readonly CaptureRunFacts[], period: Span, options: { intervalMs: number; now: number }): ObservedTime {
  return observedWithin(watchedTimeOf(runs, options), period);
}

/** The watched and unwatched time of a period, from watched time worked out before (for several periods of the same captures). */
export function observedWithin({ watched, failures }: WatchedTime, period: Span): ObservedTime {
  const observed = watched
    // A capture at the period's last instant (now) was taken in it: a point counts, a stretch does not.
    .filter((s) => s.to >= period.from && (s.from < period.to || (s.from === s.to && s.from === period.to)))
    .map((s) => ({ from: Math.max(s.from, period.from), to: Math.min(s.to, period.to) }));
  const unobserved: UnobservedSpan[] = [];
  let cursor = period.from;
  for (const s of [...observed, { from: period.to, to: period.to }]) {
    if (s.from > cursor) {
      const failed = failures.some((f) => f.to >= cursor && f.from <= s.from);
      unobserved.push({ from: cursor, to: s.from, reason: failed ? "failed" : "gap" });
    }
    cursor = Math.max(cursor, s.to);
  }
  return { observed, unobserved };
}

/** The total length of spans. */
export function totalMs(spans: readonly Span[]): number {
  return spans.reduce((sum, s) => sum + (s.to - s.from), 0);
}
