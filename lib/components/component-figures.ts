import { ACKNOWLEDGMENT_WINDOW_MS, acknowledgmentLagOf, type LagSummary, summarizeLags } from "@/lib/components/acknowledgment-lag";
import type { ComponentKnowledge } from "@/lib/components/component-grid";
import { type ComponentStatus, isDegradedStatus } from "@/lib/components/component-status";
import { observedWithin, type SourceWatch, type Span, totalMs, unionOf, type UnobservedReason, watchedTimeOfSources } from "@/lib/components/observed-time";
import type { Component } from "@/lib/incident";

/**
 * A vendor's component figures over a period, from what Redline observed: per group, the time
 * some component was degraded or out of the time watched; the quiet degradations; the median
 * acknowledgment lag. A vendor whose feeds state no grid has none of them, never zeros.
 */

export interface FigureRun {
  componentId: string;
  name: string;
  groupId: string | null;
  isGroup: boolean;
  status: ComponentStatus;
  inferred: boolean;
  from: string;
  until: string | null;
}

export interface ComponentFigureFacts {
  /** How the vendor's feeds know its components; null when none states or names them. */
  knowledge: ComponentKnowledge | null;
  /** Runs touching the period (and the acknowledgment window before it). */
  runs: FigureRun[];
  /** When each grid source watched the grid, from a little before the period. */
  watches: SourceWatch[];
  intervalMs: number;
  /** Quiet degradations that began in the period. */
  quietDegradations: number;
  /** Incidents (not maintenances) that began in the period, with the components they name. */
  incidents: ReadonlyArray<{ firstSeenAt: string; startedAt: string | null; components: readonly Component[] }>;
}

export interface GroupFigure {
  /** The group's key and name; null for components outside any group. */
  key: string | null;
  name: string | null;
  /** Its components (the group itself aside), as last listed in the period. */
  components: Array<{ key: string; name: string }>;
  /** Watched time in which some component of it was degraded or out, and out (partly or wholly). */
  degradedMs: number;
  outageMs: number;
  /** `degradedMs` of the watched time; null when nothing was watched. */
  share: number | null;
}

export type ComponentFigures =
  | { known: false }
  | {
      known: true;
      knowledge: ComponentKnowledge;
      periodMs: number;
      observedMs: number;
      unobservedMs: Record<UnobservedReason, number>;
      /** Any component of the vendor. */
      overall: GroupFigure;
      /** Groups with a name first, by name; then the components outside any group. */
      groups: GroupFigure[];
      /** Null where the feeds only name components in incidents: a quiet degradation needs a stated grid. */
      quietDegradations: number | null;
      /** Null where states are only inferred: the lag needs a state the incident did not make. */
      lag: LagSummary | null;
    };

function spansWhere(runs: readonly FigureRun[], keep: (status: ComponentStatus) => boolean, end: number): Span[] {
  return unionOf(runs.filter((r) => keep(r.status)).map((r) => ({ from: Date.parse(r.from), to: r.until === null ? end : Date.parse(r.until) })));
}

function intersect(a: readonly Span[], b: readonly Span[]): Span[] {
  const out: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (!x || !y) break;
    const from = Math.max(x.from, y.from);
    const to = Math.min(x.to, y.to);
    if (to > from) out.push({ from, to });
    if (x.to < y.to) i += 1;
    else j += 1;
  }
  return out;
}

const isOutage = (s: ComponentStatus) => s === "partial-outage" || s === "major-outage";

function groupFigure(key: string | null, name: string | null, runs: readonly FigureRun[], observed: readonly Span[], end: number): GroupFigure {
  const observedMs = totalMs(observed);
  const degradedMs = totalMs(intersect(spansWhere(runs, isDegradedStatus, end), observed));
  const latest = new Map<string, FigureRun>();
  for (const r of runs) if (!r.isGroup && (latest.get(r.componentId)?.from ?? "") <= r.from) latest.set(r.componentId, r);
  return {
    key, name,
    components: [...latest.values()].map((r) => ({ key: r.componentId, name: r.name })).sort((a, b) => a.name.localeCompare(b.name) || (a.key < b.key ? -1 : 1)),
    degradedMs,
    outageMs: totalMs(intersect(spansWhere(runs, isOutage, end), observed)),
    share: observedMs === 0 ? null : degradedMs / observedMs,
  };
}

/** The component figures of a vendor over [from, to) (ISO), watched time only, as of `now`. */
export function computeComponentFigures(facts: ComponentFigureFacts, period: { from: string; to: string }, now: Date): ComponentFigures {
  if (facts.knowledge === null) return { known: false };
  const nowMs = now.getTime();
  const span = { from: Date.parse(period.from), to: Math.min(Date.parse(period.to), nowMs) };
  if (span.to < span.from) span.to = span.from;
  const time = observedWithin(watchedTimeOfSources(facts.watches, { intervalMs: facts.intervalMs, now: nowMs }), span);
  const inPeriod = facts.runs.filter((r) => Date.parse(r.from) < span.to && (r.until === null || Date.parse(r.until) > span.from));
  const groupNames = new Map<string, { name: string; from: string }>();
  for (const r of facts.runs) if (r.isGroup && (groupNames.get(r.componentId)?.from ?? "") <= r.from) groupNames.set(r.componentId, { name: r.name, from: r.from });
  const byGroup = new Map<string | null, FigureRun[]>();
  for (const r of inPeriod) {
    const key = r.isGroup ? r.componentId : r.groupId;
    const list = byGroup.get(key) ?? [];
    list.push(r);
    byGroup.set(key, list);
  }
  const groups = [...byGroup.entries()]
    .map(([key, runs]) => groupFigure(key, key === null ? null : (groupNames.get(key)?.name ?? key), runs, time.observed, span.to))
    .sort((a, b) => (a.name === null ? 1 : 0) - (b.name === null ? 1 : 0) || (a.name ?? "").localeCompare(b.name ?? ""));
  const stated = facts.knowledge === "stated";
  const windowStart = span.from - ACKNOWLEDGMENT_WINDOW_MS;
  const lagRuns = facts.runs.filter((r) => r.until === null || Date.parse(r.until) >= windowStart);
  const unobservedMs: Record<UnobservedReason, number> = { failed: 0, gap: 0 };
  for (const s of time.unobserved) unobservedMs[s.reason] += s.to - s.from;
  return {
    known: true,
    knowledge: facts.knowledge,
    periodMs: span.to - span.from,
    observedMs: totalMs(time.observed),
    unobservedMs,
    overall: groupFigure(null, null, inPeriod, time.observed, span.to),
    groups,
    quietDegradations: stated ? facts.quietDegradations : null,
    lag: stated
      ? summarizeLags(facts.incidents.map((i) => ({ names: i.components.length > 0, lag: i.components.length > 0 ? acknowledgmentLagOf(i, lagRuns) : null })))
      : null,
  };
}
