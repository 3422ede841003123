import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import type { HttpClient } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import type { PollDeps } from "@/scrapers/poller/poll-vendor";
import { Scheduler, type SchedulerOptions } from "@/scrapers/poller/scheduler";
import { lifecycleEvents } from "@/simulator/scenario";
import { HISTORY_CYCLES } from "@/simulator/scenario-script";
import { type Simulator, startSimulator } from "@/simulator/server";
import { freshDatabase } from "@/tests/support/database";
import { waitFor } from "@/tests/support/observe";
import { holdingClient, simulatorClient, simulatorPollDeps } from "@/tests/support/poll-deps";

const START = "2026-03-02T00:00:00.000Z";
/** Date.now() and the timers' monotonic clock each round to the millisecond. */
const CLOCK_ROUNDING_MS = 2;
let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

const pollDeps = simulatorPollDeps;

function schedulerFor(deps: PollDeps, options: Partial<SchedulerOptions> = {}): Scheduler {
  return new Scheduler(deps, { concurrency: 4, policy: { intervalMs: 60_000, maxBackoffMs: 3_600_000, jitter: 0 }, ...options });
}

async function register(db: RedlineDb, simulator: Simulator): Promise<void> {
  for (const v of simulator.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
}

async function kindsOf(db: RedlineDb, providerId: string): Promise<string[]> {
  const rows = await db.connection
    .prepare<[string], { kinds: string }>("SELECT v.kinds FROM incident_versions v JOIN incidents i ON i.id = v.incident_id WHERE i.provider_id = ? ORDER BY v.seq")
    .all(providerId);
  return rows.flatMap((r) => JSON.parse(r.kinds) as string[]);
}

describe("polling the simulator", () => {
  it("archives a whole Statuspage lifecycle with the right change kinds, following the postmortem page", async () => {
    sim = await startSimulator({ vendors: [{ slug: "acme", family: "statuspage" }], acceleration: 0, start: START, seed: 3 });
    const db = await freshDatabase();
    await register(db, sim);
    const vendor = sim.vendor("acme");
    const scheduler = schedulerFor(pollDeps(db, sim));
    const events = lifecycleEvents(vendor.scenario, START, new Date(Date.parse(START) + 12 * 86_400_000).toISOString());
    const firstCycle = events.find((e) => e.kind !== "cycle-started")?.cycle;
    await scheduler.runOnce();
    for (const at of [...new Set(events.map((e) => e.at))]) {
      sim.setClock(new Date(Date.parse(at) + 1_000).toISOString());
      const round = await scheduler.runOnce();
      expect(round.failed).toBe(0);
    }
    const ids = (kind: string) => events.filter((e) => e.kind === kind && e.cycle === firstCycle).map((e) => e.incidentId ?? "");
    const [main] = ids("incident-created");
    expect(await kindsOf(db, main ?? "")).toEqual(expect.arrayContaining([
      "incident-new", "update-posted", "impact-escalated", "update-edited", "incident-resolved", "postmortem-published", "postmortem-edited",
    ]));
    const deleted = events.find((e) => e.kind === "incident-deleted" && e.cycle === firstCycle)?.incidentId ?? "";
    expect(await kindsOf(db, deleted)).toContain("incident-deleted");
    const backdated = events.find((e) => e.kind === "update-backdated" && e.cycle === firstCycle)?.incidentId ?? "";
    expect(await kindsOf(db, backdated)).toContain("update-backdated");
    const maintenance = events.find((e) => e.kind === "maintenance-rescheduled" && e.cycle === firstCycle)?.incidentId ?? "";
    expect(await kindsOf(db, maintenance)).toEqual(expect.arrayContaining(["incident-new", "rescheduled"]));
  });

  it("archives an AWS-style feed as AWS serves it, a post per item: the postmortem added under the last post is an extension, and no post is called rewritten that the vendor did not rewrite", async () => {
    sim = await startSimulator({ vendors: [{ slug: "aws-sim", family: "aws" }], acceleration: 0, start: START, seed: 3 });
    const db = await freshDatabase();
    await register(db, sim);
    const vendor = sim.vendor("aws-sim");
    const scheduler = schedulerFor(pollDeps(db, sim));
    const events = lifecycleEvents(vendor.scenario, START, new Date(Date.parse(START) + 12 * 86_400_000).toISOString());
    const firstCycle = events.find((e) => e.kind === "incident-created")?.cycle;
    await scheduler.runOnce();
    for (const at of [...new Set(events.map((e) => e.at))]) {
      sim.setClock(new Date(Date.parse(at) + 1_000).toISOString());
      expect((await scheduler.runOnce()).failed).toBe(0);
    }
    const rows = await db.connection
      .prepare<[], { id: string; kinds: string }>("SELECT i.provider_id AS id, v.kinds FROM incident_versions v JOIN incidents i ON i.id = v.incident_id ORDER BY i.provider_id, v.seq")
      .all();
    const kindsByItem = new Map<string, string[]>();
    for (const r of rows) kindsByItem.set(r.id, [...(kindsByItem.get(r.id) ?? []), ...(JSON.parse(r.kinds) as string[])]);
    // Items are named without the port the simulator listens on, so they are the same from run to run.
    expect([...kindsByItem.keys()].every((id) => id.startsWith("https://status.aws-sim.example/#"))).toBe(true);
    const itemsOf = (incidentId: string) => [...kindsByItem.entries()].filter(([id]) => id.includes(`#${incidentId}_`));
    const [main] = events.filter((e) => e.kind === "incident-created" && e.cycle === firstCycle).map((e) => e.incidentId ?? "");
    const mainItems = itemsOf(main ?? "");
    // One item per post: created, identified, monitoring, resolved.
    expect(mainItems).toHaveLength(4);
    const everyKind = [...kindsByItem.values()].flat();
    expect(everyKind).toContain("update-extended");
    expect(everyKind).not.toContain("title-changed");
    // Rewrites are the posts the scenario rewrote (a main incident's first post) and edited postmortems, nothing else.
    const rewrote = new Set(events.filter((e) => e.kind === "update-rewritten" || e.kind === "postmortem-edited").map((e) => e.incidentId ?? ""));
    const rewritten = [...kindsByItem.entries()].filter(([, kinds]) => kinds.includes("update-edited")).map(([id]) => id);
    expect(rewritten.length).toBeGreaterThan(0);
    expect(rewritten.filter((id) => ![...rewrote].some((incidentId) => id.includes(`#${incidentId}_`)))).toEqual([]);
    const resolvedItem = mainItems.find(([, kinds]) => kinds.includes("update-extended"));
    expect(resolvedItem?.[1].slice(0, 2)).toEqual(["incident-new", "update-extended"]);
  });

  it("reads incident pages only while the vendor lists the incident: one that rolled off or was deleted is not followed into a 404", async () => {
    sim = await startSimulator({ vendors: [{ slug: "acme", family: "statuspage" }], acceleration: 0, start: START, seed: 3 });
    const db = await freshDatabase();
    await register(db, sim);
    const scheduler = schedulerFor(pollDeps(db, sim));
    // Past the simulator's window of listed weeks, so early incidents leave incidents.json in status postmortem.
    const days = (HISTORY_CYCLES + 3) * 7;
    for (let day = 0; day <= days; day += 1) {
      sim.setClock(new Date(Date.parse(START) + day * 86_400_000).toISOString());
      expect((await scheduler.runOnce()).failed).toBe(0);
    }
    const left = (await db.connection.prepare("SELECT count(*) AS n FROM incidents WHERE presence <> 'listed' AND status = 'postmortem'").get()) as { n: number };
    expect(left.n).toBeGreaterThan(0);
    const failed = await db.connection.prepare("SELECT source, error FROM captures WHERE outcome NOT IN ('ok', 'not-modified')").all();
    expect(failed).toEqual([]);
    const pages = (await db.connection.prepare("SELECT count(DISTINCT source) AS n FROM captures WHERE platform = 'statuspage-incident-page'").get()) as { n: number };
    expect(pages.n).toBeGreaterThan(0);
  });

  it("records a second poll of unchanged endpoints as not-modified captures and no version", async () => {
    sim = await startSimulator({ count: 3, families: ["statuspage", "gcp", "slack"], acceleration: 0, start: START, seed: 5 });
    const db = await freshDatabase();
    await register(db, sim);
    const scheduler = schedulerFor(pollDeps(db, sim));
    const first = await scheduler.runOnce();
    expect(first.versionsAdded).toBeGreaterThan(0);
    const before = (await db.connection.prepare("SELECT count(*) AS n FROM incident_versions").get()) as { n: number };
    const rowsBefore = (await db.connection.prepare("SELECT max(id) AS id FROM captures").get()) as { id: number };
    sim.setClock("2026-03-02T00:01:00.000Z");
    const second = await scheduler.runOnce();
    expect(second).toMatchObject({ ok: 3, failed: 0, versionsAdded: 0 });
    const after = (await db.connection.prepare("SELECT count(*) AS n FROM incident_versions").get()) as { n: number };
    expect(after.n).toBe(before.n);
    const added = db.connection.prepare<[number], { outcome: string; n: number; observations: number }>("SELECT outcome, count(*) AS n, sum(observations) AS observations FROM captures WHERE id > ? GROUP BY outcome");
    const runs = await added.all(rowsBefore.id);
    expect(runs).toEqual([{ outcome: "not-modified", n: expect.any(Number), observations: runs[0]?.n }]);
    expect(runs[0]?.n).toBeGreaterThanOrEqual(4);
    sim.setClock("2026-03-02T00:02:00.000Z");
    expect(await scheduler.runOnce()).toMatchObject({ ok: 3, failed: 0, versionsAdded: 0 });
    // The third poll continues the second's runs: no row added.
    expect(await added.all(rowsBefore.id)).toEqual([{ outcome: "not-modified", n: runs[0]?.n, observations: 2 * (runs[0]?.n ?? 0) }]);
  });

  it("does not let a hanging or failing vendor hold up the healthy ones beyond its own timeout", async () => {
    sim = await startSimulator({ count: 8, families: ["statuspage-summary"], acceleration: 0, start: START, seed: 9, faults: { "sim-0001": { kind: "hang" }, "sim-0002": { kind: "status", status: 500 } } });
    const db = await freshDatabase();
    await register(db, sim);
    // The hanging vendor takes the first of two slots and is held there until every other vendor
    // has been polled through the second; only then does its request go out and meet its timeout.
    const hung = new URL(sim.vendor("sim-0001").baseUrl).origin;
    const cutShort = { slugs: ["sim-0001"], connectTimeoutMs: 1_000, responseTimeoutMs: 1_500 };
    const holding = holdingClient(simulatorClient(sim, cutShort), (url) => new URL(url).origin === hung);
    const order: string[] = [];
    const others = sim.vendors.length - 1;
    const onPolled = (vendor: { slug: string }) => {
      order.push(vendor.slug);
      if (order.length === others) holding.release();
    };
    const scheduler = schedulerFor(pollDeps(db, sim, { client: holding.client }), { concurrency: 2, onPolled });
    const round = await scheduler.runOnce();
    expect(round).toMatchObject({ vendors: 8, ok: 6, failed: 2 });
    expect(holding.heldCount()).toBe(1);
    expect(order.at(-1)).toBe("sim-0001");
    const errors = (await db.connection.prepare("SELECT v.slug, p.last_outcome AS outcome, p.last_error AS error FROM poll_state p JOIN vendors v ON v.id = p.vendor_id WHERE p.last_outcome = 'failed' ORDER BY v.slug").all()) as Array<{ slug: string; error: string }>;
    expect(errors.map((e) => e.slug)).toEqual(["sim-0001", "sim-0002"]);
    expect(errors[0]?.error).toMatch(/within 1500 ms/);
    expect(errors[1]?.error).toMatch(/HTTP 500/);
  });

  it("never polls a vendor faster than its politeness interval, and backs off a failing one", async () => {
    sim = await startSimulator({ count: 3, families: ["statuspage"], acceleration: 0, start: START, seed: 11, faults: { "sim-0003": { kind: "status", status: 503, retryAfterSeconds: 1 } } });
    const db = await freshDatabase();
    await register(db, sim);
    const gapMs = 500;
    // Each request is stamped with the gate's own clock reading as it let the request go, so a
    // late event loop cannot shorten a gap the gate kept.
    let lastReading = 0;
    const gate = new HostGate(gapMs, () => {
      lastReading = Date.now();
      return lastReading;
    });
    const starts = new Map<string, Array<{ path: string; at: number }>>();
    const inner = simulatorClient(sim);
    const client: HttpClient = {
      get(url, conditional, signal) {
        const { origin, pathname } = new URL(url);
        starts.set(origin, [...(starts.get(origin) ?? []), { path: pathname, at: lastReading }]);
        return inner.get(url, conditional, signal);
      },
    };
    const startsOf = (slug: string, path?: string) => (starts.get(new URL(sim?.vendor(slug).baseUrl ?? "").origin) ?? []).filter((s) => path === undefined || s.path === path);
    // A poll of the failing vendor tries two endpoints; each poll begins with this one.
    const firstEndpoint = "/api/v2/incidents.json";
    const scheduler = schedulerFor(pollDeps(db, sim, { client, gate }), { policy: { intervalMs: 200, maxBackoffMs: 2_000, jitter: 0 }, tickMs: 50 });
    const running = scheduler.run();
    await waitFor("six requests to each healthy vendor and three polls of the failing one", () => startsOf("sim-0001").length >= 6 && startsOf("sim-0002").length >= 6 && startsOf("sim-0003", firstEndpoint).length >= 3);
    scheduler.stop();
    await running;
    const gaps = (slug: string, path?: string) => {
      const times = startsOf(slug, path).map((s) => s.at);
      return times.slice(1).map((t, i) => t - (times[i] ?? t));
    };
    for (const slug of ["sim-0001", "sim-0002"]) {
      expect(Math.min(...gaps(slug)), slug).toBeGreaterThanOrEqual(gapMs - CLOCK_ROUNDING_MS);
    }
    // The failing vendor asked for a second between polls (Retry-After), and its failures add up.
    expect(Math.min(...gaps("sim-0003", firstEndpoint))).toBeGreaterThanOrEqual(1_000 - CLOCK_ROUNDING_MS);
    const state = (await db.connection.prepare("SELECT p.consecutive_failures AS failures FROM poll_state p JOIN vendors v ON v.id = p.vendor_id WHERE v.slug = 'sim-0003'").get()) as { failures: number };
    expect(state.failures).toBeGreaterThanOrEqual(2);
  });
});
