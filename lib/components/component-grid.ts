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
}

/**
 * How a source knows its components' states. `stated`: it lists the grid. `inferred`: it only
 * names affected components inside incidents, so a state is worked out from the open ones.
 */
export type ComponentKnowledge = "stated" | "inferred";
