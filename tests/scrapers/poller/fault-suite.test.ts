import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listVendorPollStatus } from "@/db/queries/operator-status";
import { addVendor } from "@/db/vendors";
import { createHttpClient } from "@/scrapers/http/http-client";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { FAULT_KINDS, type FaultInput } from "@/simulator/faults";
import { type Simulator, startSimulator } from "@/simulator/server";
import { freshDatabase } from "@/tests/support/database";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

/**
 * Every fault the simulator offers, at once, each on several vendors, while healthy vendors are
 * polled every second: the healthy ones stay on schedule and end with exactly the history a
 * fault-free run records; every failing vendor shows its error where the operator looks.
 */
const PER_FAULT = 3;
const HEALTHY = 8;
const INTERVAL_MS = 1_000;
const RUN_MS = 5_000;
const START = "2026-03-04T12:00:00.000Z";

const SAMPLE: Record<string, FaultInput> = {
  hang: { kind: "hang" },
  trickle: { kind: "trickle", intervalMs: 300 },
  status: { kind: "status", status: 503, retryAfterSeconds: 1 },
  truncated: { kind: "truncated" },
  "html-error": { kind: "html-error" },
  empty: { kind: "empty" },
  oversize: { kind: "oversize" },
  "redirect-loop": { kind: "redirect-loop" },
  "schema-drift": { kind: "schema-drift" },
  reset: { kind: "reset" },
};

let sim: Simulator;
let db: RedlineDb;
const polledAt = new Map<string, number[]>();
const faultySlugs: string[] = [];
const healthySlugs: string[] = [];

function histories(database: RedlineDb, slugs: readonly string[]): string[] {
  return (
    database.$client
      .prepare(
        `SELECT d.slug || ' ' || i.provider_id || ' #' || v.seq || ' ' || v.hash || ' ' || v.kinds AS line FROM incident_versions v
         JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = v.vendor_id WHERE d.slug IN (SELECT value FROM json_each(?)) ORDER BY line`,
      )
      .all(JSON.stringify(slugs)) as { line: string }[]
  ).map((r) => r.line);
}

function client() {
  return createHttpClient({ userAgent: "Redline/test", connectTimeoutMs: 1_000, responseTimeoutMs: 1_200, maxBodyBytes: 1_000_000, maxRedirects: 3, allowPrivate: true });
}

beforeAll(async () => {
  const vendors: { slug: string; family: string }[] = [];
  const faults: Record<string, FaultInput> = {};
  for (const kind of FAULT_KINDS) {
    const fault = SAMPLE[kind];
    if (!fault) throw new Error(`the suite has no sample of the simulator's "${kind}" fault: add one`);
    for (let i = 1; i <= PER_FAULT; i += 1) {
      const slug = `${kind}-${i}`;
      vendors.push({ slug, family: "statuspage-incidents" });
      faults[slug] = fault;
      faultySlugs.push(slug);
    }
  }
  for (let i = 1; i <= HEALTHY; i += 1) {
    vendors.push({ slug: `healthy-${i}`, family: "statuspage-incidents" });
    healthySlugs.push(`healthy-${i}`);
  }
  sim = await startSimulator({ vendors, acceleration: 0, start: START, seed: 31, faults });
  db = freshDatabase();
  for (const v of sim.vendors) addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  const scheduler = new Scheduler(simulatorPollDeps(db, sim, { client: client(), retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20, maxRetryAfterMs: 1_000 } }), {
    concurrency: 8,
    policy: { intervalMs: INTERVAL_MS, maxBackoffMs: 60_000, jitter: 0 },
    tickMs: 50,
    onPolled: (vendor) => polledAt.set(vendor.slug, [...(polledAt.get(vendor.slug) ?? []), Date.now()]),
  });
  const running = scheduler.run();
  await new Promise((r) => setTimeout(r, RUN_MS));
  scheduler.stop();
  await running;
}, 60_000);
afterAll(() => sim.stop());

describe("every fault at once, across many vendors", () => {
  it("keeps the healthy vendors on their schedule", () => {
    for (const slug of healthySlugs) {
      const times = polledAt.get(slug) ?? [];
      expect(times.length, slug).toBeGreaterThanOrEqual(RUN_MS / INTERVAL_MS - 1);
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? t));
      expect(Math.max(...gaps), slug).toBeLessThan(INTERVAL_MS * 2.5);
    }
  });

  it("ends with exactly the history a fault-free run records: nothing lost, duplicated or half-written", async () => {
    const clean = freshDatabase();
    for (const v of sim.vendors.filter((x) => healthySlugs.includes(x.slug))) addVendor(clean, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    await new Scheduler(simulatorPollDeps(clean, sim, { client: client() }), { concurrency: 8, policy: { intervalMs: INTERVAL_MS, maxBackoffMs: 60_000, jitter: 0 } }).runOnce();
    const expected = histories(clean, healthySlugs);
    expect(expected.length).toBeGreaterThan(HEALTHY);
    expect(histories(db, healthySlugs)).toEqual(expected);
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
    // Every capture's version count is the number of versions that point at it.
    const mismatched = db.$client
      .prepare("SELECT count(*) AS n FROM captures c WHERE c.version_count <> (SELECT count(*) FROM incident_versions v WHERE v.capture_id = c.id)")
      .get() as { n: number };
    expect(mismatched.n).toBe(0);
    expect(histories(db, faultySlugs).filter((line) => !line.startsWith("schema-drift"))).toEqual([]);
  });

  it("shows every failing vendor's error on the operator status page", () => {
    const status = new Map(listVendorPollStatus(db).map((v) => [v.slug, v]));
    for (const slug of faultySlugs) {
      const row = status.get(slug);
      expect(row?.lastOutcome, slug).toBe("failed");
      expect(row?.lastError ?? "", slug).toMatch(/\S{6,}/);
      expect(row?.failedCaptures, slug).toBeGreaterThan(0);
    }
    for (const slug of healthySlugs) expect(status.get(slug)?.lastOutcome).toBe("ok");
  });
});
