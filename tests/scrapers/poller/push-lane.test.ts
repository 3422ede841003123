import { afterEach, describe, expect, it } from "vitest";
import { requestPushPoll } from "@/db/operations/hooks";
import { addVendor, getVendorBySlug } from "@/db/settings/vendors";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { type Simulator, startSimulator } from "@/simulator/server";
import { countRows, freshDatabase } from "@/tests/support/database";
import { waitFor } from "@/tests/support/observe";
import { holdingClient, simulatorClient, simulatorPollDeps } from "@/tests/support/poll-deps";

const START = "2026-03-02T00:00:00.000Z";
let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

describe("the poller's push lane", () => {
  it("polls a pushed vendor at once, in a lane of its own, while the scheduled lane is held by a hanging vendor", async () => {
    sim = await startSimulator({ count: 3, families: ["statuspage"], acceleration: 0, start: START, seed: 5, faults: { "sim-0003": { kind: "hang" } } });
    const db = await freshDatabase();
    for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    // One scheduled slot, taken by the vendor that never answers, held there until the test has seen the push polled.
    const hung = new URL(sim.vendor("sim-0003").baseUrl).origin;
    const cutShort = { slugs: ["sim-0003"], connectTimeoutMs: 1_000, responseTimeoutMs: 1_500 };
    const holding = holdingClient(simulatorClient(sim, cutShort), (url) => new URL(url).origin === hung);
    const polled: string[] = [];
    const scheduler = new Scheduler(simulatorPollDeps(db, sim, { client: holding.client }), {
      concurrency: 1, pushConcurrency: 1, policy: { intervalMs: 3_600_000, maxBackoffMs: 3_600_000, jitter: 0 }, tickMs: 50,
      onPolled: (vendor) => polled.push(vendor.slug),
    });
    await db.connection.prepare("INSERT INTO poll_state (vendor_id, next_poll_at) SELECT id, CASE slug WHEN 'sim-0003' THEN '2000-01-01T00:00:00.000Z' ELSE '2999-01-01T00:00:00.000Z' END FROM vendors").run();
    const pushed = await getVendorBySlug(db, "sim-0001");
    if (!pushed) throw new Error("no sim-0001");
    await requestPushPoll(db, pushed.id, Date.now(), 0);
    const running = scheduler.run();
    await waitFor("the pushed vendor's poll", () => polled.includes("sim-0001"));
    // The scheduled slot was taken all along, and is still.
    expect(holding.heldCount()).toBe(1);
    expect(polled).toEqual(["sim-0001"]);
    holding.release();
    scheduler.stop();
    await running;
    expect(sim.requests("sim-0001").length).toBeGreaterThan(0);
    expect(sim.requests("sim-0002")).toHaveLength(0);
    expect(await countRows(db, "push_polls")).toBe(0);
    expect(await countRows(db, "captures")).toBeGreaterThan(0);
  });
});
