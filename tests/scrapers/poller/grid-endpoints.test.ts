import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { getPollState } from "@/db/operations/poll-state";
import { addVendor, getVendorBySlug } from "@/db/settings/vendors";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { lifecycleEvents } from "@/simulator/scenario";
import type { FaultInput } from "@/simulator/faults";
import { type Simulator, startSimulator } from "@/simulator/server";
import { freshDatabase, queryRows } from "@/tests/support/database";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

const START = "2026-03-02T00:00:00.000Z";
let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

async function setUp(vendors: Array<{ slug: string; family: string }>, faults: Record<string, FaultInput> = {}): Promise<{ db: RedlineDb; simulator: Simulator; scheduler: Scheduler }> {
  const simulator = await startSimulator({ vendors, acceleration: 0, start: START, seed: 7, faults });
  sim = simulator;
  const db = await freshDatabase();
  for (const v of simulator.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  const scheduler = new Scheduler(simulatorPollDeps(db, simulator), { concurrency: 4, policy: { intervalMs: 60_000, maxBackoffMs: 3_600_000, jitter: 0 } });
  return { db, simulator, scheduler };
}

/** The vendor's captures in the order they were recorded, incident pages (followed after the round's endpoints) aside. */
async function capturesOf(db: RedlineDb, slug: string): Promise<Array<{ path: string; outcome: string }>> {
  const rows = await queryRows<{ source: string; outcome: string }>(db, "SELECT c.source, c.outcome FROM captures c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = ? ORDER BY c.id", slug);
  return rows.map((r) => ({ path: new URL(r.source).pathname, outcome: r.outcome })).filter((c) => !c.path.startsWith("/incidents/"));
}

/** Each component's open state, by name. */
async function statesOf(db: RedlineDb, slug: string): Promise<Record<string, string>> {
  const rows = await queryRows<{ name: string; status: string }>(
    db,
    "SELECT s.name, s.status FROM component_states s JOIN vendors v ON v.id = s.vendor_id WHERE v.slug = ? AND s.until_at IS NULL",
    slug,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.status]));
}

describe("polling the component grid", () => {
  it("fetches Statuspage's components.json last in the round, and again by conditional GET, recording the grid", async () => {
    const { db, simulator, scheduler } = await setUp([{ slug: "acme", family: "statuspage" }]);
    expect((await scheduler.runOnce()).failed).toBe(0);
    const first = await capturesOf(db, "acme");
    expect(first.map((c) => c.path)).toEqual(["/api/v2/incidents.json", "/api/v2/scheduled-maintenances.json", "/api/v2/components.json"]);
    expect(first.every((c) => c.outcome === "ok")).toBe(true);
    expect(Object.keys(await statesOf(db, "acme")).sort()).toEqual(["API", "Billing", "CI Runners", "Dashboard", "Delivery", "Notifications", "Platform", "Search", "Storage", "Webhooks"]);

    simulator.setClock("2026-03-02T00:01:00.000Z");
    expect((await scheduler.runOnce()).failed).toBe(0);
    const [grid] = await queryRows<{ etag: string | null; lastStatus: number }>(db, "SELECT etag, last_status AS \"lastStatus\" FROM sources WHERE url LIKE ?", "%/api/v2/components.json");
    expect(grid?.etag).not.toBeNull();
    expect(grid?.lastStatus).toBe(304);
    expect((await capturesOf(db, "acme")).filter((c) => c.path === "/api/v2/components.json").map((c) => c.outcome)).toEqual(["ok", "not-modified"]);
  });

  it("records a grid endpoint's failure as its own capture, and neither fails the round nor backs the vendor off", async () => {
    const { db, scheduler } = await setUp([{ slug: "acme", family: "statuspage" }], { acme: { kind: "status", status: 503, retryAfterSeconds: 600, paths: ["/api/v2/components.json"] } });
    const round = await scheduler.runOnce();
    expect(round).toMatchObject({ ok: 1, failed: 0 });
    expect(await capturesOf(db, "acme")).toEqual([
      { path: "/api/v2/incidents.json", outcome: "ok" },
      { path: "/api/v2/scheduled-maintenances.json", outcome: "ok" },
      { path: "/api/v2/components.json", outcome: "failed" },
    ]);
    const vendor = await getVendorBySlug(db, "acme");
    const state = vendor ? await getPollState(db, vendor.id) : undefined;
    expect(state).toMatchObject({ lastOutcome: "ok", consecutiveFailures: 0, backoffSeconds: 0 });
    expect(await statesOf(db, "acme")).toEqual({});
  });

  it("reads the grid of Instatus, Cachet 2 and Cachet 3 from their own endpoints, after the incidents, in the states the open incident puts on them", async () => {
    const { db, simulator, scheduler } = await setUp([
      { slug: "inst", family: "instatus" },
      { slug: "cv2", family: "cachet-v2" },
      { slug: "cv3", family: "cachet-v3" },
    ]);
    const escalated = lifecycleEvents(simulator.vendor("cv2").scenario, START, "2026-03-10T00:00:00.000Z").find((e) => e.kind === "impact-escalated");
    if (!escalated) throw new Error("no escalation in the first cycle");
    simulator.setClock(new Date(Date.parse(escalated.at) + 1_000).toISOString());
    expect((await scheduler.runOnce()).failed).toBe(0);
    expect((await capturesOf(db, "inst")).map((c) => c.path)).toEqual(["/summary.json", "/v2/components.json"]);
    expect((await capturesOf(db, "cv2")).map((c) => c.path)).toEqual(["/api/v1/incidents", "/api/v1/components", "/api/v1/components/groups"]);
    expect((await capturesOf(db, "cv3")).map((c) => c.path)).toEqual(["/api/incidents", "/api/components"]);
    for (const slug of ["inst", "cv2", "cv3"]) {
      const open = simulator.stateOf(slug).find((i) => i.kind === "incident" && i.status !== "resolved" && i.status !== "postmortem");
      const states = await statesOf(db, slug);
      expect(Object.keys(states).length, slug).toBeGreaterThanOrEqual(8);
      // The incident's impact is major just after it escalates: a partial outage.
      for (const c of open?.components ?? []) expect(states[c.name], `${slug} ${c.name}`).toBe("partial-outage");
    }
    const groups = await queryRows<{ name: string }>(db, "SELECT s.name FROM component_states s JOIN vendors v ON v.id = s.vendor_id WHERE v.slug = ? AND s.is_group = ?", "cv2", 1);
    expect(groups.map((g) => g.name).sort()).toEqual(["Delivery", "Platform"]);
  });
});
