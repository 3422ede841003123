import type { ComponentStatus } from "@/lib/components/component-status";

/** One component as one snapshot states it. */
export interface ComponentReading {
  id: string;
  name: string;
  /** The id of the group it sits in; null at the top level. */
  groupId: string | null;
  /** Whether it is itself a group of others (it has a state of its own all the same). */
  isGroup: boolean;
  status: ComponentStatus;
  /** The vendor's own word for the state, as served. */
  vendorStatus: string;
  /** When the vendor says the component last changed (Statuspage `updated_at`); null when it does not say. */
  vendorChangedAt: string | null;
}

/**
 * The component grid a snapshot states. A snapshot without one (`grid` absent from the parsed
 * snapshot) says nothing of the components and changes nothing.
 */
export interface ComponentGrid {
  components: ComponentReading[];
  /** Components listed but unreadable, whose id could be read: they keep their state. */
  unreadIds: string[];
  /** A component listed whose id could not be read: no component is judged gone from this grid. */
  blind: boolean;
  /** Set when the grid lists only some of the vendor's components (see GridPart); absent, it is the whole page. */
  partial?: GridPart;
}

/**
 * What a grid that lists only some components says of the others. `page`: it is one page of a
 * longer list, so it says nothing of them. `affected`: it lists the components an ongoing incident
 * or maintenance affects (incident.io's widget, where only those leave operational), so one it
 * listed before and no longer lists is back to operational, as far as Redline can tell.
 */
export type GridPart = "page" | "affected";

/**
 * How a source knows its components' states. `stated`: it lists the grid. `inferred`: it only
 * names affected components inside incidents, so a state is worked out from the open ones.
 */
export type ComponentKnowledge = "stated" | "inferred";
