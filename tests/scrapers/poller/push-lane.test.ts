import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { requestPushPoll } from "@/db/hooks";
import { addVendor, getVendorBySlug } from "@/db/vendors";
import { createHttpClient } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import type { PollDeps } from "@/scrapers/poller/poll-vendor";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { type Simulator, startSimulator } from "@/simulator/server";
import { countRows, freshDatabase } from "@/tests/support/database";

const START = "2026-03-02T00:00:00.000Z";
let sim: Simulator | null = null;
afterEach(async () => {
  await sim?.stop();
  sim = null;
});

function deps(db: RedlineDb, simulator: Simulator): PollDeps {
  return {
    db,
    client: createHttpClient({ userAgent: "Redline/test", connectTimeoutMs: 1_000, responseTimeoutMs: 1_500, maxBodyBytes: 8 * 1024 * 1024, maxRedirects: 3, allowPrivate: true }),
    gate: new HostGate(0),
    retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 0 },
    followUpIntervalMs: 0,
    now: () => new Date(simulator.now()),
  };
}

describe("the poller's push lane", () => {
  it("polls a pushed vendor at once, in a lane of its own, while the scheduled lane is held by a hanging vendor", async () => {
    sim = await startSimulator({ count: 3, families: ["statuspage"], acceleration: 0, start: START, seed: 5, faults: { "sim-0003": { kind: "hang" } } });
    const db = freshDatabase();
    for (const v of sim.vendors) addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    // One scheduled slot, taken by the vendor that never answers (until its response timeout).
    const scheduler = new Scheduler(deps(db, sim), { concurrency: 1, pushConcurrency: 1, policy: { intervalMs: 3_600_000, maxBackoffMs: 3_600_000, jitter: 0 }, tickMs: 50 });
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
