/**
 * A simulated vendor's scripted history. Time is cut into cycles (scenario-script.ts); cycle k
 * starts at the scenario's origin + k cycles, for every integer k, so a vendor has a past at any
 * start time. What the vendor shows at a time is a pure function of (scenario, time).
 */
import { canonicalizeIncident } from "@/lib/canonicalize";
import type { Incident } from "@/lib/incident";
import { type Cycle, cycleIncidents, idOf, type PreparedCycle, prepareCycle } from "@/simulator/scenario-cycle";
import { DEFAULT_COMPONENT_COUNT } from "@/simulator/components";
import { componentOfStep, cycleGridScript, type GridScript } from "@/simulator/scenario-grid";
import { CYCLE_MS, GRID_STEPS, HISTORY_CYCLES, type LifecycleEventKind, MINUTE_MS, type Step, type StepKey, STEPS } from "@/simulator/scenario-script";
import { fingerprintOf, integerBelow } from "@/simulator/seeded";

export interface Scenario {
  vendor: string;
  seed: number;
  /** Incident links point at the vendor's own status page. */
  baseUrl: string;
  /** Start of cycle 0, in epoch ms. */
  originMs: number;
  /** How many components the vendor always lists (simulator/components.ts). */
  components: number;
}

export interface LifecycleEvent {
  at: string;
  cycle: number;
  /** "cycle-started" ages the oldest cycle's incidents out of every list. */
  kind: LifecycleEventKind | "cycle-started";
  incidentId: string | null;
  /** The component a step of the grid changes. */
  componentId: string | null;
}

/** Cycles are anchored on a Monday; each vendor is shifted by a seeded whole number of minutes. */
const ANCHOR_MS = Date.parse("2026-01-05T00:00:00.000Z");

export function createScenario(vendor: string, seed: number, baseUrl: string, components: number = DEFAULT_COMPONENT_COUNT): Scenario {
  const phase = integerBelow(CYCLE_MS / MINUTE_MS, seed, vendor, "phase") * MINUTE_MS;
  return { vendor, seed, baseUrl: baseUrl.replace(/\/+$/, ""), originMs: ANCHOR_MS + phase, components };
}

function toMs(time: number | string): number {
  const ms = typeof time === "number" ? time : Date.parse(time);
  if (!Number.isFinite(ms)) throw new RangeError(`not a time: ${String(time)}`);
  return ms;
}

export function cycleIndexAt(scenario: Scenario, time: number | string): number {
  return Math.floor((toMs(time) - scenario.originMs) / CYCLE_MS);
}

export function cycleOf(scenario: Scenario, index: number): Cycle {
  return { ...scenario, index, startMs: scenario.originMs + index * CYCLE_MS };
}

function byNewestStart(a: Incident, b: Incident): number {
  const x = a.startedAt ?? "";
  const y = b.startedAt ?? "";
  return x < y ? 1 : x > y ? -1 : a.id < b.id ? -1 : 1;
}

/**
 * One cycle's incidents at each of its change times, built once: a vendor is asked for the same
 * few states over and over (every endpoint, every poll, Last-Modified walking back).
 */
interface CyclePlan {
  cycle: PreparedCycle;
  events: LifecycleEvent[];
  changeTimes: number[];
  built: Map<number, Incident[]>;
  /** One object per distinct incident content, so an unchanged incident is the same object at every time. */
  interned: Map<string, Incident>;
}

const PLAN_CACHE_LIMIT = 40_000;
const plans = new Map<string, CyclePlan>();

function planOf(scenario: Scenario, index: number): CyclePlan {
  const key = `${scenario.vendor}|${scenario.seed}|${scenario.baseUrl}|${scenario.originMs}|${index}`;
  let plan = plans.get(key);
  if (plan) return plan;
  const cycle = prepareCycle(cycleOf(scenario, index));
  const events: LifecycleEvent[] = [{ at: new Date(cycle.startMs).toISOString(), cycle: index, kind: "cycle-started", incidentId: null, componentId: null }];
  for (const [key, step] of Object.entries({ ...STEPS, ...GRID_STEPS }) as Array<[StepKey, Step]>) {
    const incidentId = step.role === null ? null : idOf(cycle, step.role);
    events.push({ at: new Date(cycle.times[key]).toISOString(), cycle: index, kind: step.kind, incidentId, componentId: componentOfStep(cycle, key) });
  }
  events.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  plan = { cycle, events, changeTimes: [...new Set(events.map((e) => Date.parse(e.at)))], built: new Map(), interned: new Map() };
  if (plans.size >= PLAN_CACHE_LIMIT) for (const old of [...plans.keys()].slice(0, PLAN_CACHE_LIMIT / 4)) plans.delete(old);
  plans.set(key, plan);
  return plan;
}

/** Cached incidents are shared by every caller, so none may change them. */
function freezeIncident(incident: Incident): Incident {
  for (const u of incident.updates) Object.freeze(u);
  for (const c of incident.components) Object.freeze(c);
  if (incident.postmortem) Object.freeze(incident.postmortem);
  Object.freeze(incident.updates);
  Object.freeze(incident.components);
  return Object.freeze(incident);
}

function incidentsOfCycle(scenario: Scenario, index: number, t: number): Incident[] {
  const plan = planOf(scenario, index);
  const since = plan.changeTimes.findLast((at) => at <= t) ?? -Infinity;
  let incidents = plan.built.get(since);
  if (!incidents) {
    incidents = cycleIncidents(plan.cycle, t).map((built) => {
      const incident = canonicalizeIncident(built);
      const key = fingerprintOf(JSON.stringify(incident));
      const known = plan.interned.get(key);
      if (known) return known;
      plan.interned.set(key, freezeIncident(incident));
      return incident;
    });
    plan.built.set(since, incidents);
  }
  return incidents;
}

/** Every incident the vendor shows at the time, newest first, in canonical form. */
export function stateAt(scenario: Scenario, time: number | string): Incident[] {
  const t = toMs(time);
  const current = cycleIndexAt(scenario, t);
  const incidents: Incident[] = [];
  for (let k = current - HISTORY_CYCLES + 1; k <= current; k += 1) incidents.push(...incidentsOfCycle(scenario, k, t));
  return incidents.sort(byNewestStart);
}

/** What the script does to the vendor's component grid at the time, beyond what its incidents do. */
export function gridScriptAt(scenario: Scenario, time: number | string): GridScript {
  const t = toMs(time);
  return cycleGridScript(planOf(scenario, cycleIndexAt(scenario, t)).cycle, t);
}

/** The scripted events in [from, to], oldest first. */
export function lifecycleEvents(scenario: Scenario, from: number | string, to: number | string): LifecycleEvent[] {
  const fromMs = toMs(from);
  const toMsValue = toMs(to);
  const events: LifecycleEvent[] = [];
  for (let k = cycleIndexAt(scenario, fromMs); k <= cycleIndexAt(scenario, toMsValue); k += 1) {
    for (const e of planOf(scenario, k).events) {
      const at = Date.parse(e.at);
      if (at >= fromMs && at <= toMsValue) events.push(e);
    }
  }
  return events;
}

/**
 * Times at which the state last changed, newest first, starting with the one in force at `time`:
 * the state is constant from each of them until the next.
 */
export function* changeTimesBefore(scenario: Scenario, time: number | string): Generator<number> {
  const t = toMs(time);
  for (let k = cycleIndexAt(scenario, t); ; k -= 1) {
    const times = planOf(scenario, k).changeTimes.filter((at) => at <= t);
    for (const at of times.reverse()) yield at;
  }
}

/** The time the state in force at `time` began. */
export function stateSince(scenario: Scenario, time: number | string): number {
  for (const at of changeTimesBefore(scenario, time)) return at;
  throw new Error("unreachable: every cycle has a start event");
}
