import { COMPONENT_STATUSES, type ComponentStatus } from "@/lib/components/component-status";
import { type Span, totalMs, type UnobservedReason, type ObservedTime } from "@/lib/components/observed-time";

/** A run of one state as the shares read it: from the capture that first showed it to the one that first did not. */
export interface StateRun {
  status: ComponentStatus;
  from: string;
  /** Null while current. */
  until: string | null;
  inferred: boolean;
}

/** What a watched moment showed of the component: a state, or that the page did not list it. */
export type ObservedState = ComponentStatus | "not-listed";

/** Watched time, cut by the runs: each piece with the state it showed (`not-listed` where no run covers it). */
export function statesOverObserved(runs: readonly StateRun[], observed: readonly Span[]): Array<Span & { state: ObservedState; inferred: boolean }> {
  const bounds = runs
    .map((r) => ({ from: Date.parse(r.from), to: r.until === null ? Number.POSITIVE_INFINITY : Date.parse(r.until), run: r }))
    .sort((a, b) => a.from - b.from);
  const out: Array<Span & { state: ObservedState; inferred: boolean }> = [];
  // Spans and runs are both in time order, and a component's runs do not overlap: one sweep.
  let first = 0;
  for (const span of observed) {
    while (first < bounds.length && (bounds[first]?.to ?? 0) <= span.from) first += 1;
    if (span.from === span.to) {
      // A lone capture: the state it showed is the run that covers its instant.
      const b = bounds[first];
      const covers = b !== undefined && b.from <= span.from;
      out.push({ ...span, state: covers ? b.run.status : "not-listed", inferred: covers ? b.run.inferred : false });
      continue;
    }
    let cursor = span.from;
    for (let i = first; i < bounds.length; i += 1) {
      const b = bounds[i];
      if (!b || b.from >= span.to) break;
      if (b.to <= cursor) continue;
      const from = Math.max(b.from, cursor);
      const to = Math.min(b.to, span.to);
      if (from > cursor) out.push({ from: cursor, to: from, state: "not-listed", inferred: false });
      out.push({ from, to, state: b.run.status, inferred: b.run.inferred });
      cursor = to;
    }
    if (cursor < span.to) out.push({ from: cursor, to: span.to, state: "not-listed", inferred: false });
  }
  return out;
}

export interface StateShare {
  state: ObservedState;
  ms: number;
  /** Of the watched time; null when nothing was watched. */
  share: number | null;
}

export interface StateShares {
  periodMs: number;
  observedMs: number;
  /** Time not watched, by why (a failed capture in it, or a polling gap). */
  unobservedMs: Record<UnobservedReason, number>;
  /** Every state with time in it, worst first; `not-listed` last. */
  byState: StateShare[];
  /** Of the watched time, how much rests on states inferred from incidents. */
  inferredMs: number;
}

const ORDER: readonly ObservedState[] = ["major-outage", "partial-outage", "degraded", "unknown", "maintenance", "operational", "not-listed"];

/** The time the component spent in each state over a period, of the time Redline watched; the rest is shown apart, never as operational. */
export function stateSharesOf(runs: readonly StateRun[], time: ObservedTime, period: Span): StateShares {
  const observedMs = totalMs(time.observed);
  const ms = new Map<ObservedState, number>();
  let inferredMs = 0;
  for (const piece of statesOverObserved(runs, time.observed)) {
    const length = piece.to - piece.from;
    if (length <= 0) continue;
    ms.set(piece.state, (ms.get(piece.state) ?? 0) + length);
    if (piece.inferred) inferredMs += length;
  }
  const unobservedMs: Record<UnobservedReason, number> = { failed: 0, gap: 0 };
  for (const s of time.unobserved) unobservedMs[s.reason] += s.to - s.from;
  return {
    periodMs: period.to - period.from,
    observedMs,
    unobservedMs,
    byState: ORDER.filter((s) => (ms.get(s) ?? 0) > 0).map((state) => {
      const stateMs = ms.get(state) ?? 0;
      return { state, ms: stateMs, share: observedMs === 0 ? null : stateMs / observedMs };
    }),
    inferredMs,
  };
}

/** Whether a state is one of the vocabulary's (not "not listed"). */
export function isListedState(state: ObservedState): state is ComponentStatus {
  return (COMPONENT_STATUSES as readonly string[]).includes(state);
}
