import { type ComponentStatus, isDegradedStatus } from "@/lib/components/component-status";
import type { Component } from "@/lib/incident";
import { quantile } from "@/lib/quantile";

/**
 * How long before an incident was posted one of the components it names was already seen
 * degraded. Only stated states count: an inferred one is the incident itself.
 */

/** How far back from an incident's first sighting a degradation is taken to be its beginning. */
export const ACKNOWLEDGMENT_WINDOW_MS = 6 * 3_600_000;

export interface LagRun {
  componentId: string;
  status: ComponentStatus;
  inferred: boolean;
  from: string;
  until: string | null;
}

export interface LagIncident {
  /** When Redline first saw the incident in any source. */
  firstSeenAt: string;
  /** The start the vendor states; null when it states none. */
  startedAt: string | null;
  components: readonly Component[];
}

export interface AcknowledgmentLag {
  componentId: string;
  componentName: string;
  /** The state first observed. */
  status: ComponentStatus;
  /** The capture that first showed the component degraded or out. */
  degradedFrom: string;
  firstSeenAt: string;
  startedAt: string | null;
  /** From the degradation to the incident's first sighting (0: the same capture showed both). */
  beforeSightingMs: number;
  /** From the degradation to the start the vendor states: negative when the vendor says it began before Redline saw it. */
  beforeStatedStartMs: number | null;
}

/** Where a component's stated degraded runs follow one another without a break, the first one's start: a degradation that got worse is one. */
function degradationStarts(runs: readonly LagRun[]): Array<{ from: string; status: ComponentStatus }> {
  const starts: Array<{ from: string; status: ComponentStatus }> = [];
  let previousUntil: string | null | undefined;
  for (const run of [...runs].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0))) {
    const degraded = !run.inferred && isDegradedStatus(run.status);
    if (degraded && !(previousUntil !== undefined && previousUntil === run.from)) starts.push({ from: run.from, status: run.status });
    previousUntil = degraded ? run.until : undefined;
  }
  return starts;
}

/**
 * The incident's acknowledgment lag: the first degradation of a component it names that began in
 * the window before its first sighting (and was still on at it, or ended within the window),
 * measured to the sighting and to the stated start; null when there is none.
 */
export function acknowledgmentLagOf(incident: LagIncident, runs: readonly LagRun[]): AcknowledgmentLag | null {
  const sighted = Date.parse(incident.firstSeenAt);
  const windowStart = sighted - ACKNOWLEDGMENT_WINDOW_MS;
  const names = new Map(incident.components.map((c) => [c.id, c.name]));
  const byComponent = new Map<string, LagRun[]>();
  for (const run of runs) {
    if (!names.has(run.componentId)) continue;
    const list = byComponent.get(run.componentId) ?? [];
    list.push(run);
    byComponent.set(run.componentId, list);
  }
  let best: AcknowledgmentLag | null = null;
  for (const [componentId, list] of byComponent) {
    for (const start of degradationStarts(list)) {
      const at = Date.parse(start.from);
      if (at < windowStart || at > sighted) continue;
      const name = names.get(componentId) ?? componentId;
      if (best && (at > Date.parse(best.degradedFrom) || (at === Date.parse(best.degradedFrom) && name.localeCompare(best.componentName) >= 0))) continue;
      best = {
        componentId, componentName: name, status: start.status, degradedFrom: start.from, firstSeenAt: incident.firstSeenAt, startedAt: incident.startedAt,
        beforeSightingMs: sighted - at,
        beforeStatedStartMs: incident.startedAt === null ? null : Date.parse(incident.startedAt) - at,
      };
    }
  }
  return best;
}

export interface LagSummary {
  /** Incidents that name at least one component. */
  naming: number;
  /** Of those, incidents with a lag. */
  withLag: number;
  medianBeforeSightingMs: number | null;
}

/** The vendor figure: the median lag to the first sighting over the incidents that have one. */
export function summarizeLags(incidents: ReadonlyArray<{ names: boolean; lag: AcknowledgmentLag | null }>): LagSummary {
  const lags = incidents.flatMap((i) => (i.lag ? [i.lag.beforeSightingMs] : []));
  return { naming: incidents.filter((i) => i.names).length, withLag: lags.length, medianBeforeSightingMs: quantile(lags, 0.5) };
}
