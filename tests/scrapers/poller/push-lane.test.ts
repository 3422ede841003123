import { afterEach, describe, expect, it } from "vitest";
import { requestPushPoll } from "@/db/hooks";
import { addVendor, getVendorBySlug } from "@/db/vendors";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { type Simulator, startSimulator } from "@/simulator/server";
import { countRows, freshDatabase } from "@/tests/support/database";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

const START = "2026-03-02T00:00:00.000Z";
let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

describe("the poller's push lane", () => {
  it("polls a pushed vendor at once, in a lane of its own, while the scheduled lane is held by a hanging vendor", async () => {
    sim = await startSimulator({ count: 3, families: ["statuspage"], acceleration: 0, start: START, seed: 5, faults: { "sim-0003": { kind: "hang" } } });
    const db = freshDatabase();
    for (const v of sim.vendors) addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    // One scheduled slot, taken by the vendor that never answers (until its response timeout).
    const scheduler = new Scheduler(simulatorPollDeps(db, sim), { concurrency: 1, pushConcurrency: 1, policy: { intervalMs: 3_600_000, maxBackoffMs: 3_600_000, jitter: 0 }, tickMs: 50 });
    db.$client.prepare("INSERT INTO poll_state (vendor_id, next_poll_at) SELECT id, CASE slug WHEN 'sim-0003' THEN '2000-01-01T00:00:00.000Z' ELSE '2999-01-01T00:00:00.000Z' END FROM vendors").run();
    const pushed = getVendorBySlug(db, "sim-0001");
    if (!pushed) throw new Error("no sim-0001");
    requestPushPoll(db, pushed.id, Date.now(), 0);
    const running = scheduler.run();
    await new Promise((r) => setTimeout(r, 800));
    scheduler.stop();
    await running;
    expect(sim.requests("sim-0001").length).toBeGreaterThan(0);
    expect(sim.requests("sim-0002")).toHaveLength(0);
    expect(countRows(db, "push_polls")).toBe(0);
    expect(countRows(db, "captures")).toBeGreaterThan(0);
  });
});
