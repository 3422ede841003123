import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listVendorPollStatus } from "@/db/queries/operator-status";
import { addVendor } from "@/db/settings/vendors";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { FAULT_KINDS, type FaultInput } from "@/simulator/faults";
import { type Simulator, startSimulator } from "@/simulator/server";
import { freshDatabase } from "@/tests/support/database";
import { waitFor } from "@/tests/support/observe";
import { holdingClient, simulatorClient, simulatorPollDeps } from "@/tests/support/poll-deps";

/**
 * Every fault the simulator offers, at once, each on several vendors, while healthy vendors are
 * polled every second: the healthy ones keep being polled on their interval and end with exactly
 * the history a fault-free run records; every failing vendor shows its error where the operator
 * looks. The hanging vendors hold their slots until every healthy vendor has been polled
 * POLLS_WHILE_HUNG times, so the run is as long as a busy machine needs, never a fixed time.
 */
const PER_FAULT = 3;
const HEALTHY = 8;
const INTERVAL_MS = 1_000;
const POLLS_WHILE_HUNG = 4;
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
const polls = new Map<string, { ok: number; failed: number }>();
let healthyPollsWhileHung = new Map<string, number>();
const faultySlugs: string[] = [];
const healthySlugs: string[] = [];

/** The vendors named, bound as JSON. */
const NAMED = { sqlite: "SELECT value FROM json_each(?)", postgres: "SELECT value FROM jsonb_array_elements_text(?::jsonb)" };

async function histories(database: RedlineDb, slugs: readonly string[]): Promise<string[]> {
  const named = NAMED[database.connection.dialect.name as keyof typeof NAMED];
  const rows = await database.connection
    .prepare<[string], { line: string }>(
      `SELECT d.slug || ' ' || i.provider_id || ' #' || v.seq || ' ' || v.hash || ' ' || v.kinds AS line FROM incident_versions v
       JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = v.vendor_id WHERE d.slug IN (${named}) ORDER BY line`,
    )
    .all(JSON.stringify(slugs));
  return rows.map((r) => r.line);
}

/** Short timeouts for the vendors whose faults are timeouts; the rest never time out for being slow. */
function client() {
  const timeouts = faultySlugs.filter((slug) => slug.startsWith("hang-") || slug.startsWith("trickle-"));
  return simulatorClient(sim, { slugs: timeouts, connectTimeoutMs: 1_000, responseTimeoutMs: 1_200 }, 1_000_000);
}

const pollsOf = (slug: string) => polls.get(slug) ?? { ok: 0, failed: 0 };

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
  db = await freshDatabase();
  for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  const hung = new Set(faultySlugs.filter((slug) => slug.startsWith("hang-")).map((slug) => new URL(sim.vendor(slug).baseUrl).origin));
  const holding = holdingClient(client(), (url) => hung.has(new URL(url).origin));
  const scheduler = new Scheduler(simulatorPollDeps(db, sim, { client: holding.client, retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20, maxRetryAfterMs: 1_000 } }), {
    concurrency: 8,
    policy: { intervalMs: INTERVAL_MS, maxBackoffMs: 60_000, jitter: 0 },
    tickMs: 50,
    onPolled: (vendor, result) => {
      const seen = pollsOf(vendor.slug);
      polls.set(vendor.slug, result.ok ? { ...seen, ok: seen.ok + 1 } : { ...seen, failed: seen.failed + 1 });
    },
  });
  const running = scheduler.run();
  // A scheduler that let the faulty vendors crowd out the healthy ones would never get past this.
  await waitFor(`${POLLS_WHILE_HUNG} polls of every healthy vendor while the hanging ones hold their slots`, () =>
    healthySlugs.every((slug) => pollsOf(slug).ok >= POLLS_WHILE_HUNG),
  );
  healthyPollsWhileHung = new Map(healthySlugs.map((slug) => [slug, pollsOf(slug).ok]));
  const stillHung = faultySlugs.filter((slug) => slug.startsWith("hang-") && pollsOf(slug).failed === 0).length;
  holding.release();
  await waitFor("a failed poll of every faulty vendor", () => faultySlugs.every((slug) => pollsOf(slug).failed > 0));
  scheduler.stop();
  await running;
  expect(stillHung).toBe(PER_FAULT);
}, 120_000);
afterAll(() => sim.stop());

describe("every fault at once, across many vendors", () => {
  it("keeps polling the healthy vendors on their interval while the faulty ones hang and fail", async () => {
    for (const slug of healthySlugs) {
      expect(healthyPollsWhileHung.get(slug), slug).toBeGreaterThanOrEqual(POLLS_WHILE_HUNG);
      expect(pollsOf(slug).failed, slug).toBe(0);
    }
    // Each good poll booked the next one a single interval later: no backoff spilled over from the faults.
    const schedule = await db.connection
      .prepare<[string], { slug: string; failures: number; next: string; last: string }>(
        `SELECT d.slug, p.consecutive_failures AS failures, p.next_poll_at AS next, p.last_poll_at AS last
         FROM poll_state p JOIN vendors d ON d.id = p.vendor_id WHERE d.slug IN (${NAMED[db.connection.dialect.name as keyof typeof NAMED]}) ORDER BY d.slug`,
      )
      .all(JSON.stringify(healthySlugs));
    expect(schedule.map((r) => [r.slug, r.failures, Date.parse(r.next) - Date.parse(r.last)])).toEqual([...healthySlugs].sort().map((slug) => [slug, 0, INTERVAL_MS]));
  });

  it("ends with exactly the history a fault-free run records: nothing lost, duplicated or half-written", async () => {
    const clean = await freshDatabase();
    for (const v of sim.vendors.filter((x) => healthySlugs.includes(x.slug))) await addVendor(clean, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    await new Scheduler(simulatorPollDeps(clean, sim, { client: client() }), { concurrency: 8, policy: { intervalMs: INTERVAL_MS, maxBackoffMs: 60_000, jitter: 0 } }).runOnce();
    const expected = await histories(clean, healthySlugs);
    expect(expected.length).toBeGreaterThan(HEALTHY);
    expect(await histories(db, healthySlugs)).toEqual(expected);
    if (db.connection.dialect.name === "sqlite") expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
    // Every capture's version count is the number of versions that point at it.
    const mismatched = await db.connection
      .prepare<[], { n: number }>("SELECT count(*) AS n FROM captures c WHERE c.version_count <> (SELECT count(*) FROM incident_versions v WHERE v.capture_id = c.id)")
      .get();
    expect(mismatched?.n).toBe(0);
    expect((await histories(db, faultySlugs)).filter((line) => !line.startsWith("schema-drift"))).toEqual([]);
  });

  it("shows every failing vendor's error on the operator status page", async () => {
    const status = new Map((await listVendorPollStatus(db)).map((v) => [v.slug, v]));
    for (const slug of faultySlugs) {
      const row = status.get(slug);
      expect(row?.lastOutcome, slug).toBe("failed");
      expect(row?.lastError ?? "", slug).toMatch(/\S{6,}/);
      expect(row?.failedCaptures, slug).toBeGreaterThan(0);
    }
    for (const slug of healthySlugs) expect(status.get(slug)?.lastOutcome).toBe("ok");
  });
});
