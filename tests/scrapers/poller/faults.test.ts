import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { HostGate } from "@/scrapers/http/polite-fetch";
import { Scheduler } from "@/scrapers/poller/scheduler";
import type { FaultInput } from "@/simulator/faults";
import { type Simulator, startSimulator } from "@/simulator/server";
import { freshDatabase } from "@/tests/support/database";
import { simulatorClient } from "@/tests/support/poll-deps";

const FAULTS: Record<string, { fault: FaultInput; outcome: "failed" | "invalid"; error: RegExp }> = {
  hang: { fault: { kind: "hang" }, outcome: "failed", error: /no complete response .* within 1200 ms/ },
  trickle: { fault: { kind: "trickle", intervalMs: 300 }, outcome: "failed", error: /within 1200 ms/ },
  "server-error": { fault: { kind: "status", status: 500 }, outcome: "failed", error: /HTTP 500/ },
  "rate-limited": { fault: { kind: "status", status: 429, retryAfterSeconds: 900 }, outcome: "failed", error: /HTTP 429/ },
  truncated: { fault: { kind: "truncated" }, outcome: "failed", error: /closed the connection mid-body|not JSON/ },
  "html-error": { fault: { kind: "html-error" }, outcome: "failed", error: /not JSON/ },
  empty: { fault: { kind: "empty" }, outcome: "failed", error: /empty/ },
  oversize: { fault: { kind: "oversize" }, outcome: "failed", error: /over the|more than the .*cap/ },
  "redirect-loop": { fault: { kind: "redirect-loop" }, outcome: "failed", error: /more than 3 redirects/ },
  "schema-drift": { fault: { kind: "schema-drift" }, outcome: "invalid", error: /invalid at/ },
  reset: { fault: { kind: "reset" }, outcome: "failed", error: /socket hang up|ECONNRESET|reset/i },
};

let sim: Simulator;
let db: RedlineDb;

beforeAll(async () => {
  const vendors = [
    ...Object.keys(FAULTS).map((slug) => ({ slug, family: "statuspage-incidents" })),
    { slug: "healthy", family: "statuspage-incidents" },
    { slug: "json-off", family: "statuspage" },
  ];
  const faults = Object.fromEntries([
    ...Object.entries(FAULTS).map(([slug, f]) => [slug, f.fault]),
    ["json-off", { kind: "status", status: 404, paths: ["/api/v2/incidents.json", "/api/v2/scheduled-maintenances.json"] }],
  ]);
  sim = await startSimulator({ vendors, acceleration: 0, start: "2026-03-04T12:00:00.000Z", seed: 13, faults });
  db = await freshDatabase();
  for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  const scheduler = new Scheduler(
    {
      db,
      // Only the faults that are timeouts meet a short one; the others show their own error however slow the machine.
      client: simulatorClient(sim, { slugs: ["hang", "trickle"], connectTimeoutMs: 1_000, responseTimeoutMs: 1_200 }, 1_000_000),
      gate: new HostGate(0),
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 20, maxRetryAfterMs: 1_000 },
      followUpIntervalMs: 0,
    },
    { concurrency: 16, policy: { intervalMs: 300_000, maxBackoffMs: 3_600_000, jitter: 0 } },
  );
  await scheduler.runOnce();
});
afterAll(() => sim.stop());

async function pollState(slug: string) {
  const state = await db.connection
    .prepare<[string], { outcome: string; error: string | null; next: string; last: string }>(
      "SELECT p.last_outcome AS outcome, p.last_error AS error, p.next_poll_at AS next, p.last_poll_at AS last FROM poll_state p JOIN vendors v ON v.id = p.vendor_id WHERE v.slug = ?",
    )
    .get(slug);
  if (!state) throw new Error(`no poll state for ${slug}`);
  return state;
}

describe("faults vendors really show", () => {
  it.each(Object.entries(FAULTS))("records %s as a failed poll with its error, and archives nothing from it", async (slug, expected) => {
    const state = await pollState(slug);
    expect(state.outcome).toBe("failed");
    expect(state.error).toMatch(expected.error);
    const captures = (await db.connection.prepare("SELECT c.outcome, c.error FROM captures c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = ?").all(slug)) as Array<{ outcome: string; error: string }>;
    expect(captures.map((c) => c.outcome)).toEqual([expected.outcome]);
    const versions = (await db.connection.prepare("SELECT count(*) AS n FROM incident_versions i JOIN vendors v ON v.id = i.vendor_id WHERE v.slug = ?").get(slug)) as { n: number };
    expect(versions.n).toBe(0);
  });

  it("waits out a long Retry-After before polling the vendor again", async () => {
    const state = await pollState("rate-limited");
    expect(Date.parse(state.next) - Date.parse(state.last)).toBeGreaterThanOrEqual(900_000);
  });

  it("keeps archiving the healthy vendor alongside them", async () => {
    expect((await pollState("healthy")).outcome).toBe("ok");
    const versions = (await db.connection.prepare("SELECT count(*) AS n FROM incident_versions i JOIN vendors v ON v.id = i.vendor_id WHERE v.slug = 'healthy'").get()) as { n: number };
    expect(versions.n).toBeGreaterThan(0);
  });

  it("falls back to history.atom when a Statuspage JSON API is switched off, and still follows postmortems", async () => {
    expect((await pollState("json-off")).outcome).toBe("ok");
    const sources = (await db.connection.prepare("SELECT c.source, c.outcome FROM captures c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = 'json-off' ORDER BY c.id").all()) as Array<{ source: string; outcome: string }>;
    const fetched = sources.map((s) => [new URL(s.source).pathname, s.outcome]);
    expect(fetched.slice(0, 3)).toEqual([
      ["/api/v2/incidents.json", "failed"],
      ["/api/v2/scheduled-maintenances.json", "failed"],
      ["/history.atom", "ok"],
    ]);
    // Incidents the feed shows in postmortem status get their pages read for the postmortem.
    expect(fetched.slice(3).every(([pathname, outcome]) => pathname?.startsWith("/incidents/") && outcome === "ok")).toBe(true);
    const incidents = (await db.connection.prepare("SELECT count(*) AS n FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE v.slug = 'json-off'").get()) as { n: number };
    expect(incidents.n).toBeGreaterThan(0);
  });
});
