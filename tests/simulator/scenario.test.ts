import { describe, expect, it } from "vitest";
import type { Incident } from "@/lib/incident";
import type { ShownComponent } from "@/simulator/components";
import { statuspageIncidentsFormat } from "@/simulator/formats/statuspage-json";
import { createScenario, cycleOf, type LifecycleEvent, lifecycleEvents, stateAt, stateSince } from "@/simulator/scenario";
import { CYCLE_MS, DAY_MS, HISTORY_CYCLES, HOUR_MS, MINUTE_MS, STEP_JITTER_MS } from "@/simulator/scenario-script";
import { viewAt } from "@/simulator/world";

const scenario = createScenario("acme", 7, "http://127.0.0.1:40000");
const vendor = { slug: "acme", name: "Acme", baseUrl: scenario.baseUrl, scenario };
const start = cycleOf(scenario, 0).startMs;
const events = lifecycleEvents(scenario, start, start + CYCLE_MS - 1);
const at = (kind: string): number => Date.parse(events.find((e) => e.kind === kind)?.at ?? "");

function find(incidents: readonly Incident[], id: string | null): Incident | undefined {
  return incidents.find((i) => i.id === id);
}

function around(event: LifecycleEvent): { before: Incident | undefined; after: Incident | undefined } {
  const at = Date.parse(event.at);
  return { before: find(stateAt(scenario, at - 1), event.incidentId), after: find(stateAt(scenario, at), event.incidentId) };
}

/** What each event does to its incident, checked on the states just before and at the event. */
const EFFECTS: Record<string, (before: Incident | undefined, after: Incident | undefined) => void> = {
  "incident-created": (before, after) => {
    expect(before).toBeUndefined();
    expect(after?.updates).toHaveLength(1);
  },
  "update-posted": (before, after) => expect(after?.updates.length).toBe((before?.updates.length ?? 0) + 1),
  "impact-escalated": (before, after) => expect([before?.impact, after?.impact]).toEqual(["minor", "major"]),
  "update-rewritten": (before, after) => {
    const [was, is] = [before?.updates[0], after?.updates[0]];
    expect(is?.id).toBe(was?.id);
    expect(is?.body).not.toBe(was?.body);
    expect(is?.createdAt).toBe(was?.createdAt);
    expect(is?.displayAt).toBe(`${was?.displayAt?.slice(0, 19)}.000Z`);
  },
  "incident-resolved": (before, after) => {
    expect(before?.resolvedAt).toBeNull();
    expect(after?.status).toBe("resolved");
    expect(after?.resolvedAt).not.toBeNull();
  },
  "postmortem-published": (before, after) => {
    expect(before?.postmortem).toBeNull();
    expect(after?.status).toBe("postmortem");
    expect(Date.parse(after?.postmortem?.publishedAt ?? "") - Date.parse(after?.resolvedAt ?? "")).toBeGreaterThan(DAY_MS);
  },
  "postmortem-edited": (before, after) => {
    expect(after?.postmortem?.body).not.toBe(before?.postmortem?.body);
    expect(after?.postmortem?.publishedAt).toBe(before?.postmortem?.publishedAt);
  },
  "incident-deleted": (before, after) => {
    expect(before).toBeDefined();
    expect(after).toBeUndefined();
  },
  "update-backdated": (before, after) => {
    const moved = after?.updates.find((u, i) => u.displayAt !== before?.updates[i]?.displayAt);
    const was = before?.updates.find((u) => u.id === moved?.id);
    expect(moved?.createdAt).toBe(was?.createdAt);
    expect(Date.parse(was?.displayAt ?? "") - Date.parse(moved?.displayAt ?? "")).toBeGreaterThanOrEqual(15 * MINUTE_MS);
  },
  "maintenance-scheduled": (before, after) => {
    expect(before).toBeUndefined();
    expect([after?.kind, after?.status]).toEqual(["maintenance", "scheduled"]);
    expect(Date.parse(after?.scheduledFor ?? "")).toBeGreaterThan(Date.parse(after?.startedAt ?? ""));
  },
  "maintenance-rescheduled": (before, after) => {
    expect(Date.parse(after?.scheduledFor ?? "") - Date.parse(before?.scheduledFor ?? "")).toBe(2 * HOUR_MS);
    expect(Date.parse(after?.scheduledUntil ?? "") - Date.parse(before?.scheduledUntil ?? "")).toBe(2 * HOUR_MS);
  },
  "maintenance-started": (before, after) => expect([before?.status, after?.status]).toEqual(["scheduled", "in_progress"]),
  "maintenance-completed": (_, after) => expect([after?.status, after?.resolvedAt !== null]).toEqual(["completed", true]),
  "incident-posted-late": (before, after) => {
    expect(before).toBeUndefined();
    const first = after?.updates[0];
    expect(after?.updates).toHaveLength(1);
    expect([first?.createdAt, first?.displayAt]).toEqual([after?.startedAt, after?.startedAt]);
    expect(at("incident-posted-late") - Date.parse(after?.startedAt ?? "")).toBeGreaterThan(3 * HOUR_MS - STEP_JITTER_MS);
  },
};

function shownAround(event: LifecycleEvent): { before: ShownComponent | undefined; after: ShownComponent | undefined } {
  const t = Date.parse(event.at);
  const shown = (time: number) => viewAt(vendor, time).grid.find((c) => c.id === event.componentId);
  return { before: shown(t - 1), after: shown(t) };
}

/** What each event of the grid does to its component, as the grid shows it just before and at the event. */
const GRID_EFFECTS: Record<string, (before: ShownComponent | undefined, after: ShownComponent | undefined) => void> = {
  "component-degraded": (before, after) => expect([before?.status, after?.status]).toEqual(["operational", "degraded"]),
  "component-worsened": (before, after) => expect([before?.status, after?.status]).toEqual(["degraded", "partial-outage"]),
  "component-recovered": (before, after) => expect([before?.status, after?.status]).toEqual(["partial-outage", "operational"]),
  "component-added": (before, after) => {
    expect(before).toBeUndefined();
    expect(after).toMatchObject({ name: "Bulk import (beta)", status: "operational", group: null });
  },
  "component-renamed": (before, after) => expect([before?.name, after?.name]).toEqual(["Bulk import (beta)", "Bulk import"]),
  "component-removed": (before, after) => {
    expect(before?.name).toBe("Bulk import");
    expect(after).toBeUndefined();
  },
};

/** The documented timeline: offsets from the cycle's start, each within a minute's jitter. */
const TIMELINE: Array<[string, number]> = [
  ["cycle-started", 0],
  ["incident-created", 0],
  ["update-posted", 20 * MINUTE_MS],
  ["impact-escalated", 40 * MINUTE_MS],
  ["update-rewritten", HOUR_MS],
  ["update-posted", 80 * MINUTE_MS],
  ["incident-resolved", 2 * HOUR_MS],
  ["incident-created", 3 * HOUR_MS],
  ["incident-deleted", 3 * HOUR_MS + 40 * MINUTE_MS],
  ["incident-created", 4 * HOUR_MS],
  ["update-posted", 4 * HOUR_MS + 30 * MINUTE_MS],
  ["incident-resolved", 5 * HOUR_MS],
  ["update-backdated", 6 * HOUR_MS],
  ["maintenance-scheduled", 8 * HOUR_MS],
  ["maintenance-rescheduled", 20 * HOUR_MS],
  ["maintenance-started", DAY_MS + 4 * HOUR_MS],
  ["maintenance-completed", DAY_MS + 6 * HOUR_MS],
  ["postmortem-published", 2 * DAY_MS],
  ["component-degraded", 2 * DAY_MS + 6 * HOUR_MS],
  ["component-worsened", 2 * DAY_MS + 12 * HOUR_MS],
  ["component-recovered", 2 * DAY_MS + 16 * HOUR_MS],
  ["postmortem-edited", 3 * DAY_MS],
  ["component-degraded", 3 * DAY_MS + 6 * HOUR_MS],
  ["incident-posted-late", 3 * DAY_MS + 9 * HOUR_MS],
  ["incident-resolved", 3 * DAY_MS + 11 * HOUR_MS],
  ["component-added", 4 * DAY_MS],
  ["component-renamed", 4 * DAY_MS + 12 * HOUR_MS],
  ["component-removed", 5 * DAY_MS + 12 * HOUR_MS],
];

describe("scenario", () => {
  it("plays every lifecycle event of a cycle at its documented offset from the cycle's start", () => {
    expect(events.map((e) => e.kind)).toEqual(TIMELINE.map(([kind]) => kind));
    events.forEach((event, i) => {
      const offset = Date.parse(event.at) - start - (TIMELINE[i]?.[1] ?? NaN);
      expect(offset, `${event.kind} at ${event.at}`).toBeGreaterThanOrEqual(0);
      expect(offset).toBeLessThan(STEP_JITTER_MS);
    });
  });

  it.each(events.filter((e) => e.kind !== "cycle-started" && e.componentId === null).map((e) => [e.kind, e] as const))(
    "shows %s in the state exactly from its time on",
    (kind, event) => {
      const { before, after } = around(event);
      const effect = EFFECTS[kind];
      if (!effect) throw new Error(`no check for ${kind}`);
      effect(before, after);
    },
  );

  it.each(events.filter((e) => e.componentId !== null).map((e) => [e.kind, e] as const))(
    "shows %s in the grid exactly from its time on",
    (kind, event) => {
      const { before, after } = shownAround(event);
      const effect = GRID_EFFECTS[kind];
      if (!effect) throw new Error(`no check for ${kind}`);
      effect(before, after);
    },
  );

  it("changes nothing between two consecutive events, in the incidents or the grid", () => {
    for (let i = 0; i + 1 < events.length; i += 1) {
      const from = Date.parse(events[i]?.at ?? "");
      const to = Date.parse(events[i + 1]?.at ?? "");
      if (to > from) {
        expect(stateAt(scenario, to - 1)).toEqual(stateAt(scenario, from));
        expect(viewAt(vendor, to - 1).grid).toEqual(viewAt(vendor, from).grid);
      }
      expect(stateSince(scenario, to - 1)).toBe(from);
    }
  });

  it("degrades a component while no incident is open, and takes it back to operational", () => {
    const open = (t: number) => stateAt(scenario, t).filter((i) => i.kind === "incident" && !["resolved", "postmortem"].includes(i.status ?? ""));
    const quiet = events.filter((e) => ["component-degraded", "component-worsened", "component-recovered"].includes(e.kind)).slice(0, 3);
    expect(quiet.map((e) => e.kind)).toEqual(["component-degraded", "component-worsened", "component-recovered"]);
    for (let t = Date.parse(quiet[0]?.at ?? ""); t < Date.parse(quiet[2]?.at ?? ""); t += 10 * MINUTE_MS) {
      expect(open(t), new Date(t).toISOString()).toEqual([]);
      expect(viewAt(vendor, t).grid.filter((c) => c.status !== "operational").map((c) => c.id)).toEqual([quiet[0]?.componentId]);
    }
  });

  it("posts the late incident naming the component degraded since the time it gives, with nothing else open", () => {
    const degraded = events.find((e) => e.kind === "component-degraded" && Date.parse(e.at) > at("postmortem-edited"));
    const posted = at("incident-posted-late");
    const late = stateAt(scenario, posted).find((i) => i.startedAt === degraded?.at);
    expect(late?.components.map((c) => c.id)).toEqual([degraded?.componentId]);
    expect(stateAt(scenario, posted - 1).filter((i) => i.kind === "incident" && i.resolvedAt === null)).toEqual([]);
    const shown = (t: number) => viewAt(vendor, t).grid.find((c) => c.id === degraded?.componentId)?.status;
    expect([shown(Date.parse(degraded?.at ?? "") - 1), shown(posted - 1), shown(posted), shown(at("component-added"))]).toEqual(["operational", "degraded", "degraded", "operational"]);
  });

  it("lists a fresh component each cycle, numbered apart from the others", () => {
    const added = (k: number) => {
      const t = cycleOf(scenario, k).startMs + 4 * DAY_MS + 6 * HOUR_MS;
      return viewAt(vendor, t).components.find((c) => !viewAt(vendor, cycleOf(scenario, k).startMs).components.some((d) => d.id === c.id));
    };
    const [first, second] = [added(0), added(1)];
    expect(first?.id).toBeDefined();
    expect(second?.id).not.toBe(first?.id);
    expect(second?.number).not.toBe(first?.number);
    const usual = viewAt(vendor, start).components.map((c) => c.number);
    expect(usual).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(usual).not.toContain(first?.number);
  });

  it("deletes an incident while older ones stay listed in the most-recent feed", () => {
    const deletion = events.find((e) => e.kind === "incident-deleted");
    const at = Date.parse(deletion?.at ?? "");
    const listedBefore = statuspageIncidentsFormat.select(viewAt(vendor, at - 1), "/api/v2/incidents.json") ?? [];
    const listedAfter = statuspageIncidentsFormat.select(viewAt(vendor, at), "/api/v2/incidents.json") ?? [];
    const deleted = find(listedBefore, deletion?.incidentId ?? null);
    expect(deleted).toBeDefined();
    expect(find(listedAfter, deletion?.incidentId ?? null)).toBeUndefined();
    expect(listedAfter.filter((i) => (i.startedAt ?? "") < (deleted?.startedAt ?? "")).length).toBeGreaterThanOrEqual(2);
  });

  it("repeats the cycle with fresh incident ids and ages the oldest cycle out", () => {
    const ids = (k: number) => new Set(lifecycleEvents(scenario, cycleOf(scenario, k).startMs, cycleOf(scenario, k + 1).startMs - 1).flatMap((e) => e.incidentId ?? []));
    const first = ids(0);
    const second = ids(1);
    expect(first.size).toBe(5);
    expect([...first].filter((id) => second.has(id))).toEqual([]);
    const nextStart = cycleOf(scenario, HISTORY_CYCLES).startMs;
    const oldest = [...first].filter((id) => find(stateAt(scenario, nextStart - 1), id));
    expect(oldest.length).toBeGreaterThan(0);
    expect(oldest.filter((id) => find(stateAt(scenario, nextStart), id))).toEqual([]);
  });

  it("is a pure function of vendor, seed and time", () => {
    const at = start + 2.5 * DAY_MS;
    expect(stateAt(createScenario("acme", 7, scenario.baseUrl), at)).toEqual(stateAt(scenario, at));
    expect(stateAt(createScenario("acme", 8, scenario.baseUrl), at)).not.toEqual(stateAt(scenario, at));
    expect(stateAt(createScenario("other", 7, scenario.baseUrl), at)).not.toEqual(stateAt(scenario, at));
  });
});
