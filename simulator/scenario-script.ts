/**
 * One cycle of a simulated vendor's life, as offsets from the cycle's start: which incident each
 * step touches and what Redline should see change. All steps fall within a cycle, so each cycle's
 * incidents are a function of that cycle and the time alone.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const CYCLE_MS = 7 * DAY_MS;

/** The incidents of one cycle: each plays its own part of the lifecycle. */
export type Role = "main" | "deleted" | "backdated" | "maintenance" | "late";

export type LifecycleEventKind =
  | "incident-created"
  | "update-posted"
  | "impact-escalated"
  | "update-rewritten"
  | "incident-resolved"
  | "postmortem-published"
  | "postmortem-edited"
  | "incident-deleted"
  | "update-backdated"
  | "maintenance-scheduled"
  | "maintenance-rescheduled"
  | "maintenance-started"
  | "maintenance-completed"
  | "incident-posted-late"
  | "component-degraded"
  | "component-worsened"
  | "component-recovered"
  | "component-added"
  | "component-renamed"
  | "component-removed";

export interface Step {
  name: string;
  /** The incident it touches; null for a step of the component grid alone. */
  role: Role | null;
  kind: LifecycleEventKind;
  offsetMs: number;
}

const step = (name: string, role: Role | null, kind: LifecycleEventKind, offsetMs: number): Step => ({ name, role, kind, offsetMs });

export const STEPS = {
  mainCreated: step("main-created", "main", "incident-created", 0),
  mainIdentified: step("main-identified", "main", "update-posted", 20 * MINUTE_MS),
  mainEscalated: step("main-escalated", "main", "impact-escalated", 40 * MINUTE_MS),
  mainRewritten: step("main-rewritten", "main", "update-rewritten", 60 * MINUTE_MS),
  mainMonitoring: step("main-monitoring", "main", "update-posted", 80 * MINUTE_MS),
  mainResolved: step("main-resolved", "main", "incident-resolved", 2 * HOUR_MS),
  postmortemPublished: step("postmortem-published", "main", "postmortem-published", 2 * DAY_MS),
  postmortemEdited: step("postmortem-edited", "main", "postmortem-edited", 3 * DAY_MS),
  deletedCreated: step("deleted-created", "deleted", "incident-created", 3 * HOUR_MS),
  deleted: step("deleted", "deleted", "incident-deleted", 3 * HOUR_MS + 40 * MINUTE_MS),
  backdatedCreated: step("backdated-created", "backdated", "incident-created", 4 * HOUR_MS),
  backdatedMonitoring: step("backdated-monitoring", "backdated", "update-posted", 4 * HOUR_MS + 30 * MINUTE_MS),
  backdatedResolved: step("backdated-resolved", "backdated", "incident-resolved", 5 * HOUR_MS),
  backdated: step("backdated", "backdated", "update-backdated", 6 * HOUR_MS),
  maintenanceScheduled: step("maintenance-scheduled", "maintenance", "maintenance-scheduled", 8 * HOUR_MS),
  maintenanceRescheduled: step("maintenance-rescheduled", "maintenance", "maintenance-rescheduled", 20 * HOUR_MS),
  maintenanceStarted: step("maintenance-started", "maintenance", "maintenance-started", DAY_MS + 4 * HOUR_MS),
  maintenanceCompleted: step("maintenance-completed", "maintenance", "maintenance-completed", DAY_MS + 6 * HOUR_MS),
} as const;

/**
 * The component grid's story, after the incidents' steps: a degradation nobody writes up, an
 * incident posted three hours after its component degraded and dated from then, and a component
 * that appears, is renamed and is removed. Their jitter is drawn after everything the steps above
 * draw, so those keep their times and ids.
 */
export const GRID_STEPS = {
  quietDegraded: step("quiet-degraded", null, "component-degraded", 2 * DAY_MS + 6 * HOUR_MS),
  quietWorsened: step("quiet-worsened", null, "component-worsened", 2 * DAY_MS + 12 * HOUR_MS),
  quietRecovered: step("quiet-recovered", null, "component-recovered", 2 * DAY_MS + 16 * HOUR_MS),
  lateDegraded: step("late-degraded", null, "component-degraded", 3 * DAY_MS + 6 * HOUR_MS),
  latePosted: step("late-posted", "late", "incident-posted-late", 3 * DAY_MS + 9 * HOUR_MS),
  lateResolved: step("late-resolved", "late", "incident-resolved", 3 * DAY_MS + 11 * HOUR_MS),
  importAdded: step("import-added", null, "component-added", 4 * DAY_MS),
  importRenamed: step("import-renamed", null, "component-renamed", 4 * DAY_MS + 12 * HOUR_MS),
  importRemoved: step("import-removed", null, "component-removed", 5 * DAY_MS + 12 * HOUR_MS),
} as const;

export type StepKey = keyof typeof STEPS | keyof typeof GRID_STEPS;

/** The maintenance window as first announced, then as moved, relative to the cycle's start. */
export const MAINTENANCE_WINDOWS = {
  announced: { from: DAY_MS + 2 * HOUR_MS, until: DAY_MS + 4 * HOUR_MS },
  moved: { from: DAY_MS + 4 * HOUR_MS, until: DAY_MS + 6 * HOUR_MS },
} as const;

/** How far the backdated update's display time is moved back. */
export const BACKDATE_MS = 15 * MINUTE_MS;

/** Cycles whose incidents a vendor still lists: the oldest age out as a new cycle starts. */
export const HISTORY_CYCLES = 9;

/** Steps happen within a minute of their offset, so vendors do not all change in the same millisecond. */
export const STEP_JITTER_MS = 50_000;
