/**
 * What one cycle's script does to the component grid, over the states its incidents give
 * (scenario-script.ts GRID_STEPS): a component degraded, then partly out, with no incident; the
 * late incident's component degraded for three hours before the incident is posted; and a
 * component listed for a day and a half of the cycle, renamed on its way, then removed.
 */
import type { ComponentStatus } from "@/lib/components/component-status";
import type { SimComponent } from "@/simulator/components";
import type { PreparedCycle } from "@/simulator/scenario-cycle";
import type { StepKey } from "@/simulator/scenario-script";
import { codeOf } from "@/simulator/seeded";

export interface GridScript {
  /** Components listed beside the vendor's usual ones. */
  added: SimComponent[];
  /** The states the script puts on components, by id. */
  states: Map<string, ComponentStatus>;
}

/** Cachet numbers the cycle's added component after the usual ones, reusing a number only 900 cycles later. */
const ADDED_NUMBER_BASE = 100;
const ADDED_NUMBERS = 900;

/** The component listed for part of the cycle: a fresh id each cycle, at the top level. */
export function addedComponentOf(cycle: PreparedCycle, renamed: boolean): SimComponent {
  const number = ADDED_NUMBER_BASE + (((cycle.index % ADDED_NUMBERS) + ADDED_NUMBERS) % ADDED_NUMBERS);
  return { id: codeOf(12, cycle.seed, cycle.vendor, "component", "bulk-import", cycle.index), name: renamed ? "Bulk import" : "Bulk import (beta)", group: null, number };
}

/** The grid script at time t, a time within the cycle. */
export function cycleGridScript(cycle: PreparedCycle, t: number): GridScript {
  const { times } = cycle;
  const states = new Map<string, ComponentStatus>();
  if (t >= times.quietDegraded && t < times.quietRecovered) states.set(cycle.quiet.id, t >= times.quietWorsened ? "partial-outage" : "degraded");
  // From its posting on, the late incident keeps its component degraded.
  if (t >= times.lateDegraded && t < times.latePosted) states.set(cycle.texts.late.component.id, "degraded");
  const added = t >= times.importAdded && t < times.importRemoved ? [addedComponentOf(cycle, t >= times.importRenamed)] : [];
  return { added, states };
}

/** The component a grid step changes; null for a step of an incident. */
export function componentOfStep(cycle: PreparedCycle, key: StepKey): string | null {
  switch (key) {
    case "quietDegraded":
    case "quietWorsened":
    case "quietRecovered":
      return cycle.quiet.id;
    case "lateDegraded":
      return cycle.texts.late.component.id;
    case "importAdded":
    case "importRenamed":
    case "importRemoved":
      return addedComponentOf(cycle, false).id;
    default:
      return null;
  }
}
