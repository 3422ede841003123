import { rankComponentStatus } from "@/lib/components/component-status";
import type { Span } from "@/lib/components/observed-time";
import { utcDayOf } from "@/lib/time";
import { isListedState, type ObservedState, type StateRun, statesOverObserved } from "@/lib/components/state-shares";

const DAY_MS = 86_400_000;

/** A day of the strip: the worst state Redline saw that day, or that it did not watch the page at all. */
export interface DayCell {
  /** YYYY-MM-DD (UTC). */
  day: string;
  state: ObservedState | "not-observed";
  /** How much of the day was watched (a day with only lone captures has 0 but is observed). */
  observedMs: number;
  /** The day's length as far as it has gone (today: until now). */
  dayMs: number;
  /** Whether the state shown rests on an inference from incidents. */
  inferred: boolean;
}

function worse(a: ObservedState, b: ObservedState): boolean {
  // Any state of the vocabulary says more than "not listed", however good.
  if (!isListedState(a)) return isListedState(b);
  return isListedState(b) && rankComponentStatus(b) > rankComponentStatus(a);
}

/**
 * The last `days` UTC days up to the one holding `now`, oldest first, as status pages draw their
 * bars but from what Redline observed: each day the worst state of its watched moments; a day
 * with none is "not observed", never operational.
 */
export function dayStripOf(runs: readonly StateRun[], observed: readonly Span[], options: { days: number; now: number }): DayCell[] {
  const today = Math.floor(options.now / DAY_MS) * DAY_MS;
  const pieces = statesOverObserved(runs, observed);
  const cells: DayCell[] = [];
  // Pieces are in time order: each day starts from the first piece that does not end before it.
  let first = 0;
  for (let i = options.days - 1; i >= 0; i -= 1) {
    const start = today - i * DAY_MS;
    const end = Math.min(start + DAY_MS, options.now);
    let state: DayCell["state"] = "not-observed";
    let inferred = false;
    let observedMs = 0;
    while (first < pieces.length && (pieces[first]?.to ?? 0) < start) first += 1;
    for (let i = first; i < pieces.length; i += 1) {
      const p = pieces[i];
      if (!p || p.from >= start + DAY_MS) break;
      const from = Math.max(p.from, start);
      const to = Math.min(p.to, end);
      // A piece touches the day when it overlaps it, or is a lone capture inside it.
      if (to < from || (to === from && !(p.from === p.to && p.from >= start && p.from < start + DAY_MS))) continue;
      observedMs += to - from;
      if (state === "not-observed" || worse(state, p.state)) {
        state = p.state;
        inferred = p.inferred;
      }
    }
    cells.push({ day: utcDayOf(start), state, observedMs, dayMs: Math.max(0, end - start), inferred });
  }
  return cells;
}
