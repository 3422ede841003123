import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { loadComponentRuns } from "@/db/queries/component-history";
import { loadVendorExport } from "@/db/queries/incident-history";
import { resolveIncidentPage } from "@/db/queries/incident-route";
import { addVendor, getVendorBySlug } from "@/db/settings/vendors";
import type { StoredComponentRun } from "@/lib/components/component-history";
import { isDegradedStatus } from "@/lib/components/component-status";
import { incidentKey } from "@/lib/incident-key";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { cycleIndexAt, cycleOf, type LifecycleEvent, lifecycleEvents, stateAt } from "@/simulator/scenario";
import { CYCLE_MS, DAY_MS, HOUR_MS } from "@/simulator/scenario-script";
import { type Simulator, startSimulator } from "@/simulator/server";
import { type SimVendor, viewAt } from "@/simulator/world";
import { freshDatabase } from "@/tests/support/database";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

/**
 * The simulator's scripted component events, polled by Redline as a poller would, every two
 * simulated hours through each vendor's story: what Redline records is what the script played.
 */
const START = "2026-03-02T00:00:00.000Z";
const STEP_MS = 2 * HOUR_MS;
/** Every format family that states a grid, and one whose grid is inferred from its incidents. */
const GRID_FAMILIES = ["statuspage", "statuspage-summary", "instatus", "betterstack", "cachet-v2", "cachet-v3"];
const INFERRED_FAMILY = "gcp";
/** Instatus's summary.json names no components on its incidents: no lag can be told there. */
const NO_NAMED_COMPONENTS = new Set(["instatus"]);

/** One vendor's story in its first whole cycle after the start, as the simulator scripts it. */
interface Story {
  vendor: SimVendor;
  cycleStartMs: number;
  quiet: { name: string; degradedMs: number; recoveredMs: number };
  late: { title: string; component: string; statedStartMs: number; postedMs: number };
  added: { addedMs: number; renamedMs: number; removedMs: number };
}

function storyOf(vendor: SimVendor): Story {
  const cycleStartMs = cycleOf(vendor.scenario, cycleIndexAt(vendor.scenario, START) + 1).startMs;
  const events = lifecycleEvents(vendor.scenario, cycleStartMs, cycleStartMs + CYCLE_MS - 1);
  const ms = (e: LifecycleEvent | undefined) => Date.parse(e?.at ?? "");
  const find = (kind: string, nth = 0) => events.filter((e) => e.kind === kind)[nth];
  const [quietDegraded, lateDegraded] = [find("component-degraded", 0), find("component-degraded", 1)];
  const posted = find("incident-posted-late");
  const shownName = (e: LifecycleEvent | undefined) => viewAt(vendor, ms(e)).grid.find((c) => c.id === e?.componentId)?.name ?? "";
  const late = stateAt(vendor.scenario, ms(posted)).find((i) => i.id === posted?.incidentId);
  return {
    vendor,
    cycleStartMs,
    quiet: { name: shownName(quietDegraded), degradedMs: ms(quietDegraded), recoveredMs: ms(find("component-recovered")) },
    late: { title: late?.title ?? "", component: shownName(lateDegraded), statedStartMs: Date.parse(late?.startedAt ?? ""), postedMs: ms(posted) },
    added: { addedMs: ms(find("component-added")), renamedMs: ms(find("component-renamed")), removedMs: ms(find("component-removed")) },
  };
}

/** The first poll at or after the event sees it: what Redline records falls in [event, event + one step]. */
function seenAfter(iso: string | null | undefined, eventMs: number): void {
  const at = Date.parse(iso ?? "");
  expect(at).toBeGreaterThanOrEqual(eventMs);
  expect(at).toBeLessThanOrEqual(eventMs + STEP_MS + 1_000);
}

let sim: Simulator;
let db: RedlineDb;
let stories: Map<string, Story>;

beforeAll(async () => {
  const families = [...GRID_FAMILIES, INFERRED_FAMILY];
  sim = await startSimulator({ vendors: families.map((family) => ({ slug: `v-${family}`, family })), acceleration: 0, start: START, seed: 13, control: false });
  db = await freshDatabase();
  for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  stories = new Map(sim.vendors.map((v) => [v.family, storyOf(v)]));
  const ticks = new Set([Date.parse(START)]);
  for (const story of stories.values()) {
    for (let t = story.cycleStartMs + 2 * DAY_MS; t <= story.cycleStartMs + 5 * DAY_MS + 18 * HOUR_MS; t += STEP_MS) ticks.add(t);
  }
  const scheduler = new Scheduler(simulatorPollDeps(db, sim), { concurrency: 4, policy: { intervalMs: STEP_MS, maxBackoffMs: 3_600_000, jitter: 0 } });
  for (const t of [...ticks].sort((a, b) => a - b)) {
    sim.setClock(new Date(t).toISOString());
    const round = await scheduler.runOnce();
    if (round.failed > 0) throw new Error(`a poll round at ${sim.now()} failed: ${round.firstError ?? ""}`);
  }
});

afterAll(async () => {
  await sim.stop();
});

function storyFor(family: string): Story {
  const story = stories.get(family);
  if (!story) throw new Error(`no vendor of ${family}`);
  return story;
}

async function runsOf(slug: string): Promise<StoredComponentRun[]> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) throw new Error(`no vendor ${slug}`);
  return (await loadComponentRuns(db, vendor.id)).filter((r) => !r.isGroup);
}

/** A component's key by the name its runs carry (Cachet keys components by its own numbers). */
function keyOf(runs: readonly StoredComponentRun[], name: string, fromMs = 0): string | undefined {
  return runs.find((r) => r.name === name && Date.parse(r.from) >= fromMs)?.componentId;
}

describe("the simulator's scripted component events, polled", () => {
  it.each(GRID_FAMILIES)("%s: a component degraded, then out, with no incident is recorded as a quiet degradation from the first poll that showed it to the first that did not", async (family) => {
    const { vendor, quiet } = storyFor(family);
    const runs = await runsOf(vendor.slug);
    const key = keyOf(runs, quiet.name);
    const exported = await loadVendorExport(db, vendor.slug);
    const stretch = exported?.quietDegradations?.find((q) => Date.parse(q.from) >= quiet.degradedMs && Date.parse(q.from) < quiet.recoveredMs);
    expect(stretch?.components).toEqual([key]);
    seenAfter(stretch?.from, quiet.degradedMs);
    seenAfter(stretch?.until, quiet.recoveredMs);
    const during = runs.filter((r) => r.componentId === key && Date.parse(r.from) >= quiet.degradedMs && Date.parse(r.from) < quiet.recoveredMs);
    expect(during.map((r) => r.status)).toEqual(["degraded", family === "betterstack" ? "major-outage" : "partial-outage"]);
    expect(during.every((r) => !r.inferred)).toBe(true);
  });

  it.each([...GRID_FAMILIES, INFERRED_FAMILY])("%s: the incident posted three hours after its component degraded is posted late, by at least the time to the poll before it", async (family) => {
    const { vendor, late } = storyFor(family);
    const incident = (await loadVendorExport(db, vendor.slug))?.incidents.find((i) => i.title === late.title && Math.abs(Date.parse(i.startedAt ?? "") - late.statedStartMs) < 60_000);
    expect(incident).toBeDefined();
    const page = await resolveIncidentPage(db, vendor.slug, incidentKey(incident?.id ?? ""));
    const posted = page?.timing.postedLate.incident;
    seenAfter(posted?.firstSeenAt, late.postedMs);
    expect(Date.parse(posted?.boundAt ?? "")).toBeLessThan(late.postedMs);
    expect(posted?.atLeastMs).toBeGreaterThan(late.postedMs - STEP_MS - late.statedStartMs - 60_000);
  });

  it.each(GRID_FAMILIES.filter((f) => !NO_NAMED_COMPONENTS.has(f)))("%s: the late incident's acknowledgment lag runs from the poll that first showed its component degraded", async (family) => {
    const { vendor, late } = storyFor(family);
    const runs = await runsOf(vendor.slug);
    const incident = (await loadVendorExport(db, vendor.slug))?.incidents.find((i) => i.title === late.title && Math.abs(Date.parse(i.startedAt ?? "") - late.statedStartMs) < 60_000);
    const lag = (await resolveIncidentPage(db, vendor.slug, incidentKey(incident?.id ?? "")))?.timing.lag;
    expect(lag?.componentId).toBe(keyOf(runs, late.component));
    seenAfter(lag?.degradedFrom, late.statedStartMs);
    expect(lag?.beforeSightingMs).toBeGreaterThan(0);
    expect(lag?.beforeStatedStartMs).toBeLessThanOrEqual(0);
    const degraded = runs.find((r) => r.componentId === lag?.componentId && r.from === lag?.degradedFrom);
    expect(degraded && isDegradedStatus(degraded.status)).toBe(true);
  });

  it(`${INFERRED_FAMILY}: a grid inferred from incidents makes no quiet degradation and no acknowledgment lag`, async () => {
    const { vendor, late } = storyFor(INFERRED_FAMILY);
    const exported = await loadVendorExport(db, vendor.slug);
    expect(exported?.quietDegradations).toEqual([]);
    const incident = exported?.incidents.find((i) => i.title === late.title && Math.abs(Date.parse(i.startedAt ?? "") - late.statedStartMs) < 60_000);
    expect((await resolveIncidentPage(db, vendor.slug, incidentKey(incident?.id ?? "")))?.timing.lag).toBeNull();
  });

  it.each(GRID_FAMILIES)("%s: the component added for part of the cycle keeps its key through its rename, and its last run ends at its removal", async (family) => {
    const { vendor, added } = storyFor(family);
    const runs = await runsOf(vendor.slug);
    const key = keyOf(runs, "Bulk import (beta)", added.addedMs);
    const own = runs.filter((r) => r.componentId === key);
    expect(own.map((r) => r.name)).toEqual(["Bulk import (beta)", "Bulk import"]);
    seenAfter(own[0]?.from, added.addedMs);
    seenAfter(own[1]?.from, added.renamedMs);
    expect(own[1]?.since).toBe(own[0]?.from);
    seenAfter(own[1]?.until, added.removedMs);
  });
});
