import type { ComponentGrid, ComponentKnowledge } from "@/lib/components/component-grid";
import { type ComponentStatus, isDegradedStatus, worseStatus } from "@/lib/components/component-status";
import type { Component, Impact } from "@/lib/incident";

/** A component in one run of one state: what a run stores, whoever reads it. */
export interface ComponentRun {
  componentId: string;
  name: string;
  groupId: string | null;
  isGroup: boolean;
  status: ComponentStatus;
  vendorStatus: string;
  /** Worked out from the open incidents naming the component, not stated by the vendor. */
  inferred: boolean;
  /** When the state began: the run's start, or an earlier run's when only the name or group changed since. */
  since: string;
}

/** A component's state as the archive holds it now: its open run. */
export interface ComponentState extends ComponentRun {
  /** The source whose capture stated (or from whose incidents was inferred) the state. */
  source: string;
  vendorChangedAt: string | null;
}

/** What the component step needs of an incident the vendor has open. */
export interface OpenIncidentFacts {
  kind: "incident" | "maintenance";
  status: string | null;
  impact: Impact | null;
  components: readonly Component[];
}

/** The quiet degradation running as the capture arrives: its components so far, and when it began. */
export interface RunningQuiet {
  components: readonly string[];
  from: string;
}

export interface ComponentStepInput {
  source: string;
  observedAt: string;
  knowledge: ComponentKnowledge | undefined;
  /** The grid the capture states (stated sources only). */
  grid: ComponentGrid | undefined;
  /** Components the capture's incidents name, open or not (inferred sources: the components known to exist). */
  named: readonly Component[];
  /** Every component's open run before the capture. */
  current: readonly ComponentState[];
  /** The vendor's open incidents and maintenances once the capture is applied. */
  openIncidents: readonly OpenIncidentFacts[];
  quiet: RunningQuiet | null;
}

export type QuietChange =
  | { kind: "start"; components: string[] }
  | { kind: "grow"; components: string[] }
  | { kind: "end" }
  /** It ends at the instant it began (one poll round's two sources): it was none. */
  | { kind: "drop" };

export interface ComponentStep {
  /** Components whose open run ends at this capture (a new state, or no longer listed). */
  ended: string[];
  /** Runs that start at this capture. */
  started: ComponentState[];
  quiet: QuietChange | null;
}

/** Two states alike for a reader: the same state, the vendor's same word, known the same way. */
function sameState(a: ComponentState, b: ComponentState): boolean {
  return a.status === b.status && a.vendorStatus === b.vendorStatus && a.inferred === b.inferred;
}

/** Two states that are one run: the same state, and the same name and place (the vendor's clock aside). */
function sameRun(a: ComponentState, b: ComponentState): boolean {
  return sameState(a, b) && a.name === b.name && a.groupId === b.groupId && a.isGroup === b.isGroup;
}

/** The next run of a component: unchanged (null), or one that starts now, keeping when the state began if only the name or place changed. */
function nextRun(now: ComponentState | undefined, next: ComponentState): ComponentState | null {
  if (now && sameRun(now, next)) return null;
  return now && sameState(now, next) ? { ...next, since: now.since } : next;
}

/** The word kept for a component a grid of affected components no longer lists. */
export const NO_LONGER_AFFECTED = "no longer listed as affected";

/**
 * The grid a stated source gives: every readable component; those it no longer lists end, unless
 * it could not say or lists only some. A grid of the affected components puts one it no longer
 * lists back to operational instead, as inferred: the vendor did not say so in as many words.
 */
function statedStep(input: ComponentStepInput, grid: ComponentGrid, current: ReadonlyMap<string, ComponentState>): Pick<ComponentStep, "ended" | "started"> {
  const ended: string[] = [];
  const started: ComponentState[] = [];
  const listed = new Set<string>([...grid.unreadIds]);
  const put = (next: ComponentState) => {
    const now = current.get(next.componentId);
    const run = nextRun(now, next);
    if (run === null) return;
    if (now) ended.push(next.componentId);
    started.push(run);
  };
  for (const c of grid.components) {
    listed.add(c.id);
    put({
      componentId: c.id, name: c.name, groupId: c.groupId, isGroup: c.isGroup, status: c.status, vendorStatus: c.vendorStatus,
      inferred: false, source: input.source, vendorChangedAt: c.vendorChangedAt, since: input.observedAt,
    });
  }
  if (grid.blind || grid.partial === "page") return { ended, started };
  // Only the source that stated a component can say it is gone: another may not list it at all.
  for (const state of current.values()) {
    if (state.source !== input.source || listed.has(state.componentId)) continue;
    if (grid.partial === "affected") put({ ...state, status: "operational", vendorStatus: NO_LONGER_AFFECTED, inferred: true, vendorChangedAt: null, since: input.observedAt });
    else if (!state.inferred) ended.push(state.componentId);
  }
  return { ended, started };
}

/** The state an open incident or maintenance puts on the components it names; null when it puts none. */
function inferredFrom(incident: OpenIncidentFacts): { status: ComponentStatus; word: string } | null {
  // A maintenance announced ahead puts nothing on its components until it begins.
  if (incident.kind === "maintenance") return incident.status === "scheduled" ? null : { status: "maintenance", word: "maintenance in progress" };
  switch (incident.impact) {
    case "critical": return { status: "major-outage", word: "incident open, impact critical" };
    case "major": return { status: "partial-outage", word: "incident open, impact major" };
    case "minor": return { status: "degraded", word: "incident open, impact minor" };
    // The vendor says the incident has no impact: it does not degrade what it names.
    case "none": return null;
    default: return { status: "degraded", word: "incident open, impact not stated" };
  }
}

/**
 * The states a source that only names components in incidents implies: the worst that any open
 * incident naming a component puts on it, operational for the others it has named. A state a
 * source states is never overridden, and a vendor with a stated grid gets no inferred components.
 */
function inferredStep(input: ComponentStepInput, current: ReadonlyMap<string, ComponentState>): Pick<ComponentStep, "ended" | "started"> {
  const ended: string[] = [];
  const started: ComponentState[] = [];
  if ([...current.values()].some((s) => !s.inferred)) return { ended, started };
  const worst = new Map<string, { name: string; status: ComponentStatus; word: string }>();
  for (const incident of input.openIncidents) {
    const put = inferredFrom(incident);
    if (!put) continue;
    for (const c of incident.components) {
      const was = worst.get(c.id);
      if (!was || worseStatus(was.status, put.status) !== was.status) worst.set(c.id, { name: c.name, ...put });
    }
  }
  const names = new Map<string, string>();
  for (const s of current.values()) names.set(s.componentId, s.name);
  for (const c of input.named) names.set(c.id, c.name);
  for (const [id, w] of worst) names.set(id, w.name);
  for (const [id, name] of names) {
    const w = worst.get(id);
    const next: ComponentState = {
      componentId: id, name, groupId: null, isGroup: false, status: w?.status ?? "operational", vendorStatus: w?.word ?? "no open incident names it",
      inferred: true, source: input.source, vendorChangedAt: null, since: input.observedAt,
    };
    const now = current.get(id);
    const run = nextRun(now, next);
    if (run === null) continue;
    if (now) ended.push(id);
    started.push(run);
  }
  return { ended, started };
}

/** Whether the vendor has an incident open (a maintenance, scheduled or not, is not one). */
export function hasOpenIncident(open: readonly OpenIncidentFacts[]): boolean {
  return open.some((i) => i.kind === "incident");
}

/** The components a quiet degradation is made of at one instant: stated degradations and outages of components, not groups. */
export function quietComponentsOf(states: Iterable<ComponentState>): string[] {
  const out: string[] = [];
  for (const s of states) if (!s.inferred && !s.isGroup && isDegradedStatus(s.status)) out.push(s.componentId);
  return out.sort();
}

/**
 * A quiet degradation starts at a capture that shows the grid: where the grid is read apart from
 * the incidents, a moment after them, an incident's closing alone shows nothing of the grid, and
 * its components recovering with it would otherwise make a stretch of that moment.
 */
function quietChange(input: ComponentStepInput, after: Iterable<ComponentState>): QuietChange | null {
  const degraded = quietComponentsOf(after);
  const quiet = degraded.length > 0 && !hasOpenIncident(input.openIncidents);
  if (!quiet && input.quiet) return input.quiet.from === input.observedAt ? { kind: "drop" } : { kind: "end" };
  if (!quiet) return null;
  if (!input.quiet) return input.knowledge === "stated" && input.grid ? { kind: "start", components: degraded } : null;
  const grown = [...new Set([...input.quiet.components, ...degraded])].sort();
  return grown.length > input.quiet.components.length ? { kind: "grow", components: grown } : null;
}

/** Every component's open run once the step is recorded. */
export function statesAfter(current: readonly ComponentState[], step: Pick<ComponentStep, "ended" | "started">): ComponentState[] {
  const after = new Map(current.map((s) => [s.componentId, s]));
  for (const id of step.ended) after.delete(id);
  for (const s of step.started) after.set(s.componentId, s);
  return [...after.values()];
}

/**
 * The component step of the derive stage: one applied capture against the components' open runs
 * gives the runs that end and start, and what becomes of a quiet degradation (components degraded
 * or out while the vendor has no incident open). Pure: the store loads the runs and records the step.
 */
export function deriveComponentStep(input: ComponentStepInput): ComponentStep {
  const current = new Map(input.current.map((s) => [s.componentId, s]));
  let changed: Pick<ComponentStep, "ended" | "started"> = { ended: [], started: [] };
  if (input.knowledge === "stated" && input.grid) changed = statedStep(input, input.grid, current);
  else if (input.knowledge === "inferred") changed = inferredStep(input, current);
  return { ...changed, quiet: quietChange(input, statesAfter(input.current, changed)) };
}
