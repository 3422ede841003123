/**
 * The incidents of one cycle at a given time: each role's incident with every step up to that
 * time applied, as normalized incidents (updates oldest first, components sorted).
 */
import type { Component, Incident, IncidentUpdate } from "@/lib/incident";
import {
  BACKDATE_MS,
  GRID_STEPS,
  MAINTENANCE_WINDOWS,
  type Role,
  STEP_JITTER_MS,
  STEPS,
  type Step,
  type StepKey,
} from "@/simulator/scenario-script";
import { drawComponent, postmortemOf, textsOf, type CycleTexts } from "@/simulator/scenario-texts";
import { SeededStream } from "@/simulator/seeded";

export interface Cycle {
  vendor: string;
  seed: number;
  baseUrl: string;
  index: number;
  startMs: number;
}

/** A cycle with its seeded values worked out once: step times, texts and ids. */
export interface PreparedCycle extends Cycle {
  times: Record<StepKey, number>;
  texts: Record<Role, CycleTexts>;
  ids: ReadonlyMap<string, string>;
  /** The component that degrades with no incident (the late incident's is its subject's). */
  quiet: Component;
}

const iso = (ms: number): string => new Date(ms).toISOString();
const ROLES: readonly Role[] = ["main", "deleted", "backdated", "maintenance", "late"];
const UPDATES_PER_ROLE = 4;

/**
 * Work out the cycle's seeded values, all from one stream: a jitter under a minute for each step,
 * then per role the incident id, the subject and the update ids, then the grid steps' jitters and
 * the quietly degraded component. Values added later are drawn after the others, which keep theirs.
 */
export function prepareCycle(cycle: Cycle): PreparedCycle {
  const stream = new SeededStream(cycle.seed, cycle.vendor, cycle.index, "cycle");
  const jittered = (steps: Record<string, Step>) =>
    Object.fromEntries(Object.entries(steps).map(([key, step]) => [key, cycle.startMs + step.offsetMs + stream.integerBelow(STEP_JITTER_MS)]));
  const times = jittered(STEPS);
  const ids = new Map<string, string>();
  const texts = Object.fromEntries(
    ROLES.map((role) => {
      for (let update = 0; update <= UPDATES_PER_ROLE; update += 1) ids.set(`${role}/${update}`, stream.code(12));
      return [role, textsOf(cycle.vendor, cycle.seed, role, stream)];
    }),
  );
  Object.assign(times, jittered(GRID_STEPS));
  const quiet = drawComponent(cycle.vendor, cycle.seed, stream);
  return { ...cycle, times: times as Record<StepKey, number>, texts: texts as Record<Role, CycleTexts>, ids, quiet };
}

/** The incident's id (update 0) or the id of its n-th update. */
export function idOf(cycle: PreparedCycle, role: Role, update = 0): string {
  return cycle.ids.get(`${role}/${update}`) ?? `${role}${update}`;
}

function post(cycle: PreparedCycle, role: Role, n: number, status: string, body: string, atMs: number): IncidentUpdate {
  const at = iso(atMs);
  return { id: idOf(cycle, role, n), status, body, createdAt: at, displayAt: at };
}

function draft(cycle: PreparedCycle, role: Role, startedMs: number): Incident {
  const texts = cycle.texts[role];
  const id = idOf(cycle, role);
  return {
    vendor: cycle.vendor,
    id,
    kind: role === "maintenance" ? "maintenance" : "incident",
    title: texts.title,
    status: null,
    impact: role === "maintenance" ? "maintenance" : "minor",
    url: `${cycle.baseUrl}/incidents/${id}`,
    startedAt: iso(startedMs),
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [texts.component],
    updates: [],
    postmortem: null,
  };
}

function withStatusOfLastUpdate(incident: Incident): Incident {
  return { ...incident, status: incident.updates.at(-1)?.status ?? null };
}

function mainIncident(cycle: PreparedCycle, t: number): Incident | null {
  const created = cycle.times.mainCreated;
  if (t < created) return null;
  const texts = cycle.texts.main;
  const body = (n: number): string => texts.bodies[n - 1] ?? "";
  const first = post(cycle, "main", 1, "investigating", body(1), created);
  // Statuspage truncates an edited update's display time to whole seconds.
  const rewritten = t >= cycle.times.mainRewritten;
  const updates = [
    rewritten ? { ...first, body: texts.rewritten, displayAt: iso(Math.floor(created / 1000) * 1000) } : first,
  ];
  const later: Array<[StepKey, string]> = [["mainIdentified", "identified"], ["mainMonitoring", "monitoring"], ["mainResolved", "resolved"]];
  later.forEach(([step, status], i) => {
    const at = cycle.times[step];
    if (t >= at) updates.push(post(cycle, "main", i + 2, status, body(i + 2), at));
  });
  const resolvedMs = cycle.times.mainResolved;
  const published = cycle.times.postmortemPublished;
  const incident = withStatusOfLastUpdate({
    ...draft(cycle, "main", created),
    impact: t >= cycle.times.mainEscalated ? "major" : "minor",
    resolvedAt: t >= resolvedMs ? iso(resolvedMs) : null,
    updates,
  });
  if (t < published) return incident;
  const edited = t >= cycle.times.postmortemEdited;
  return {
    ...incident,
    status: "postmortem",
    postmortem: { body: postmortemOf(texts, created, resolvedMs, edited), publishedAt: iso(published) },
  };
}

function deletedIncident(cycle: PreparedCycle, t: number): Incident | null {
  const created = cycle.times.deletedCreated;
  if (t < created || t >= cycle.times.deleted) return null;
  const texts = cycle.texts.deleted;
  const updates = [post(cycle, "deleted", 1, "investigating", texts.bodies[0] ?? "", created)];
  return withStatusOfLastUpdate({ ...draft(cycle, "deleted", created), updates });
}

function backdatedIncident(cycle: PreparedCycle, t: number): Incident | null {
  const created = cycle.times.backdatedCreated;
  if (t < created) return null;
  const texts = cycle.texts.backdated;
  const updates = [post(cycle, "backdated", 1, "investigating", texts.bodies[0] ?? "", created)];
  const monitoring = cycle.times.backdatedMonitoring;
  if (t >= monitoring) {
    const second = post(cycle, "backdated", 2, "monitoring", texts.bodies[1] ?? "", monitoring);
    const movedTo = cycle.startMs + STEPS.backdatedMonitoring.offsetMs - BACKDATE_MS;
    updates.push(t >= cycle.times.backdated ? { ...second, displayAt: iso(movedTo) } : second);
  }
  const resolved = cycle.times.backdatedResolved;
  if (t >= resolved) updates.push(post(cycle, "backdated", 3, "resolved", texts.bodies[2] ?? "", resolved));
  return withStatusOfLastUpdate({
    ...draft(cycle, "backdated", created),
    resolvedAt: t >= resolved ? iso(resolved) : null,
    updates,
  });
}

function maintenance(cycle: PreparedCycle, t: number): Incident | null {
  const announced = cycle.times.maintenanceScheduled;
  if (t < announced) return null;
  const texts = cycle.texts.maintenance;
  const window = t >= cycle.times.maintenanceRescheduled ? MAINTENANCE_WINDOWS.moved : MAINTENANCE_WINDOWS.announced;
  const updates = [post(cycle, "maintenance", 1, "scheduled", texts.bodies[0] ?? "", announced)];
  const started = cycle.times.maintenanceStarted;
  const completed = cycle.times.maintenanceCompleted;
  if (t >= started) updates.push(post(cycle, "maintenance", 2, "in_progress", texts.bodies[1] ?? "", started));
  if (t >= completed) updates.push(post(cycle, "maintenance", 3, "completed", texts.bodies[2] ?? "", completed));
  return withStatusOfLastUpdate({
    ...draft(cycle, "maintenance", announced),
    resolvedAt: t >= completed ? iso(completed) : null,
    scheduledFor: iso(cycle.startMs + window.from),
    scheduledUntil: iso(cycle.startMs + window.until),
    updates,
  });
}

/**
 * Posted only three hours after its component degraded, dated from then: its start and its first
 * update give the time the component degraded, before the captures that did not list it.
 */
function lateIncident(cycle: PreparedCycle, t: number): Incident | null {
  if (t < cycle.times.latePosted) return null;
  const texts = cycle.texts.late;
  const stated = cycle.times.lateDegraded;
  const updates = [post(cycle, "late", 1, "investigating", texts.bodies[0] ?? "", stated)];
  const resolved = cycle.times.lateResolved;
  if (t >= resolved) updates.push(post(cycle, "late", 2, "resolved", texts.bodies[1] ?? "", resolved));
  return withStatusOfLastUpdate({ ...draft(cycle, "late", stated), resolvedAt: t >= resolved ? iso(resolved) : null, updates });
}

/** Every incident of the cycle that exists at time t (a deleted one no longer does). */
export function cycleIncidents(cycle: PreparedCycle, t: number): Incident[] {
  return [mainIncident(cycle, t), deletedIncident(cycle, t), backdatedIncident(cycle, t), maintenance(cycle, t), lateIncident(cycle, t)].filter(
    (i): i is Incident => i !== null,
  );
}
