import { describe, expect, it } from "vitest";
import type { Incident } from "@/lib/incident";
import { statuspageIncidentsFormat } from "@/simulator/formats/statuspage-json";
import { createScenario, cycleOf, type LifecycleEvent, lifecycleEvents, stateAt, stateSince } from "@/simulator/scenario";
import { CYCLE_MS, DAY_MS, HISTORY_CYCLES, HOUR_MS, MINUTE_MS, STEP_JITTER_MS } from "@/simulator/scenario-script";
import { viewAt } from "@/simulator/world";

const scenario = createScenario("acme", 7, "http://127.0.0.1:40000");
const start = cycleOf(scenario, 0).startMs;
const events = lifecycleEvents(scenario, start, start + CYCLE_MS - 1);

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
  ["postmortem-edited", 3 * DAY_MS],
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

  it.each(events.filter((e) => e.kind !== "cycle-started").map((e) => [e.kind, e] as const))(
    "shows %s in the state exactly from its time on",
    (kind, event) => {
      const { before, after } = around(event);
      const effect = EFFECTS[kind];
      if (!effect) throw new Error(`no check for ${kind}`);
      effect(before, after);
    },
  );

  it("changes nothing between two consecutive events", () => {
    for (let i = 0; i + 1 < events.length; i += 1) {
      const from = Date.parse(events[i]?.at ?? "");
      const to = Date.parse(events[i + 1]?.at ?? "");
      if (to > from) expect(stateAt(scenario, to - 1)).toEqual(stateAt(scenario, from));
      expect(stateSince(scenario, to - 1)).toBe(from);
    }
  });

  it("deletes an incident while older ones stay listed in the most-recent feed", () => {
    const deletion = events.find((e) => e.kind === "incident-deleted");
    const at = Date.parse(deletion?.at ?? "");
    const vendor = { slug: "acme", name: "Acme", baseUrl: scenario.baseUrl, scenario };
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
    expect(first.size).toBe(4);
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
