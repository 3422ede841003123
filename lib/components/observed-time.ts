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

/** The stretches one source's good captures cover, joined where nothing failed between them and none is too far from the next. */
function sourceSpans(runs: readonly CaptureRunFacts[], maxGap: number, now: number): Span[] {
  const pieces: Span[] = [];
  const failures: Span[] = [];
  for (const run of runs) {
    const from = Date.parse(run.first);
    const to = Date.parse(run.last);
    if (!run.good) {
      failures.push({ from, to });
      continue;
    }
    // A run keeps no instant between its first and last observation: it is watched throughout
    // only if its observations are, on average, close enough together.
    const dense = run.observations > 1 && (to - from) / (run.observations - 1) <= maxGap;
    if (dense || from === to) pieces.push({ from, to });
    else pieces.push({ from, to: from }, { from: to, to });
  }
  pieces.sort((a, b) => a.from - b.from || a.to - b.to);
  const failedBetween = (a: number, b: number) => failures.some((f) => f.to > a && f.from < b);
  const joined: Span[] = [];
  for (const piece of pieces) {
    const last = joined.at(-1);
    if (last && piece.from <= last.to) last.to = Math.max(last.to, piece.to);
    else if (last && piece.from - last.to <= maxGap && !failedBetween(last.to, piece.from)) last.to = Math.max(last.to, piece.to);
    else joined.push({ ...piece });
  }
  // Since the last good capture: watched while the next poll is not yet overdue and none has failed.
  const tail = joined.at(-1);
  if (tail && now > tail.to && now - tail.to <= maxGap && !failedBetween(tail.to, now)) tail.to = now;
  return joined;
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
  const maxGap = longestWatchedGap(options.intervalMs);
  const bySource = new Map<string, CaptureRunFacts[]>();
  for (const run of runs) {
    const list = bySource.get(run.source) ?? [];
    list.push(run);
    bySource.set(run.source, list);
  }
  const watched = unionOf([...bySource.values()].flatMap((list) => sourceSpans(list, maxGap, options.now)));
  const failures = runs.filter((r) => !r.good).map((r) => ({ from: Date.parse(r.first), to: Date.parse(r.last) }));
  return { watched, failures };
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
