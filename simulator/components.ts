/**
 * The simulated vendors' components: one list per vendor, some of them in named groups, and the
 * state each is shown in, which by default is the one the vendor's open incidents and running
 * maintenances put on it (the worst of them). Every format that states a grid states this one, in
 * its own words, so that what an incident says and what the grid shows agree.
 *
 * The cycle's scripted component events (simulator/scenario-grid.ts: a degradation nobody writes
 * up, a component that appears, is renamed and is removed) add to the list and put states on
 * components; `gridAt` applies them over the default.
 */
import type { ComponentStatus } from "@/lib/components/component-status";
import type { Component, Incident } from "@/lib/incident";
import { codeOf } from "@/simulator/seeded";

export interface SimGroup {
  id: string;
  name: string;
}

export interface SimComponent extends Component {
  /** The group it sits in; null at the top level. */
  group: SimGroup | null;
  /** Its serial number, as Cachet numbers components: kept for its whole life, whatever else is listed. */
  number: number;
}

/** A component as the page shows it at one moment. */
export interface ShownComponent extends SimComponent {
  status: ComponentStatus;
}

/** A group as the page shows it: the worst state of its members, as Statuspage and Cachet 2 show a group. */
export interface ShownGroup extends SimGroup {
  status: ComponentStatus;
  members: ShownComponent[];
}

/** What each simulated vendor lists, by name, and in which group. */
const LAYOUT: ReadonlyArray<{ name: string; group: string | null }> = [
  { name: "API", group: "Platform" },
  { name: "Webhooks", group: "Platform" },
  { name: "Search", group: "Platform" },
  { name: "Storage", group: "Platform" },
  { name: "Notifications", group: "Delivery" },
  { name: "CI Runners", group: "Delivery" },
  { name: "Dashboard", group: null },
  { name: "Billing", group: null },
];

export function componentIdOf(vendor: string, seed: number, name: string): string {
  return codeOf(12, seed, vendor, "component", name);
}

export function byComponentId(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** How many components a simulated vendor lists unless told otherwise. */
export const DEFAULT_COMPONENT_COUNT = LAYOUT.length;

/** The layout, or the layout and as many regions as it takes to list `count` components (never fewer than the layout's). */
function layoutOf(count: number): ReadonlyArray<{ name: string; group: string | null }> {
  const regions = Array.from({ length: Math.max(0, count - LAYOUT.length) }, (_, i) => ({ name: `Region ${i + 1}`, group: "Regions" }));
  return [...LAYOUT, ...regions];
}

/**
 * Every component a simulated vendor always lists, sorted by id as the normalized incident keeps them,
 * numbered in that order. Past the layout's eight, `count` adds regions in a group of their own (the
 * benchmarks' larger grids); incidents name only the layout's.
 */
export function componentList(vendor: string, seed: number, count: number = DEFAULT_COMPONENT_COUNT): SimComponent[] {
  const group = (name: string | null): SimGroup | null => (name === null ? null : { id: codeOf(12, seed, vendor, "group", name), name });
  const listed = layoutOf(count).map((c) => ({ id: componentIdOf(vendor, seed, c.name), name: c.name, group: group(c.group) })).sort(byComponentId);
  return listed.map((c, i) => ({ ...c, number: i + 1 }));
}

const RANK: Record<ComponentStatus, number> = { operational: 0, maintenance: 1, unknown: 2, degraded: 3, "partial-outage": 4, "major-outage": 5 };

export function worseOf(a: ComponentStatus, b: ComponentStatus): ComponentStatus {
  return RANK[b] > RANK[a] ? b : a;
}

const OVER = new Set(["resolved", "postmortem", "completed"]);

/** The state an incident puts on the components it names while it is open; operational once it is over. */
export function stateFrom(incident: Incident): ComponentStatus {
  if (incident.status !== null && OVER.has(incident.status)) return "operational";
  if (incident.kind === "maintenance") return incident.status === "in_progress" ? "maintenance" : "operational";
  switch (incident.impact) {
    case "critical": return "major-outage";
    case "major": return "partial-outage";
    case "none": return "operational";
    default: return "degraded";
  }
}

/** The incidents that put a state on a component now: what a grid-only endpoint depends on. */
export function affectingIncidents(incidents: readonly Incident[]): Incident[] {
  return incidents.filter((i) => i.components.length > 0 && stateFrom(i) !== "operational");
}

/**
 * Each component in the worst of the states the vendor's incidents and the script put on it, in the
 * list's order: the one place a component's state is decided.
 */
export function gridAt(components: readonly SimComponent[], incidents: readonly Incident[], scripted: ReadonlyMap<string, ComponentStatus> = new Map()): ShownComponent[] {
  const worst = new Map(scripted);
  for (const incident of affectingIncidents(incidents)) {
    const state = stateFrom(incident);
    for (const c of incident.components) worst.set(c.id, worseOf(worst.get(c.id) ?? "operational", state));
  }
  return components.map((c) => ({ ...c, status: worst.get(c.id) ?? "operational" }));
}

/** The groups of a grid, in the order their first member is listed, each in its worst member's state. */
export function groupsOf(grid: readonly ShownComponent[]): ShownGroup[] {
  const groups = new Map<string, ShownGroup>();
  for (const c of grid) {
    if (c.group === null) continue;
    const g = groups.get(c.group.id) ?? { ...c.group, status: "operational", members: [] };
    g.members.push(c);
    g.status = worseOf(g.status, c.status);
    groups.set(c.group.id, g);
  }
  return [...groups.values()];
}

/** Whether two grids show the same: the same components, names, groups and states. */
export function sameGrid(a: readonly ShownComponent[], b: readonly ShownComponent[]): boolean {
  return a.length === b.length && a.every((c, i) => {
    const d = b[i];
    return d !== undefined && c.id === d.id && c.name === d.name && c.status === d.status && c.group?.id === d.group?.id && c.group?.name === d.group?.name;
  });
}
