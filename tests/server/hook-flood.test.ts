import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { listThrottleTelemetry, setHookSecretHash } from "@/db/hooks";
import { addVendor } from "@/db/vendors";
import { createHttpClient } from "@/scrapers/http/http-client";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { type Simulator, startSimulator } from "@/simulator/server";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

/**
 * The replay-loop incident, re-enacted: one source pushes 50,000 times at a steady rate with a
 * fresh event id each time and its content cycling (replays), while a second source pushes
 * normally and the poller keeps its schedule. The hook endpoint runs in a process of its own, as
 * the web process does in production; the poller runs here.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const FLOOD = 50_000;
const FLOOD_RATE = 1_500;
const ALERT_INTERVAL_S = 4;
const POLL_INTERVAL_MS = 1_000;
const SECRET = "flood-test-secret-0123456789";

let dir: string;
let dbFile: string;
let db: RedlineDb;
let sim: Simulator;
let hookServer: ChildProcess;
let alertServer: http.Server;
const alerts: { scope: string; throttled: number }[] = [];
let base = "";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = http.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function payload(incident: string, name: string, eventId: string): string {
  return JSON.stringify({
    meta: { event_id: eventId, generated_at: new Date().toISOString() },
    id: eventId,
    incident: {
      id: incident, name, status: "investigating", impact: "minor", created_at: "2026-05-01T00:00:00.000Z", updated_at: "2026-05-01T00:00:00.000Z",
      started_at: "2026-05-01T00:00:00.000Z", resolved_at: null, shortlink: null, components: [], page_id: "p", postmortem_body: null,
      postmortem_published_at: null, scheduled_for: null, scheduled_until: null,
      incident_updates: [{ id: `${incident}-u`, status: "investigating", body: name, created_at: "2026-05-01T00:00:00.000Z", display_at: "2026-05-01T00:00:00.000Z", updated_at: "2026-05-01T00:00:00.000Z" }],
    },
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-flood-"));
  dbFile = path.join(dir, "redline.db");
  db = openDatabase(dbFile);
  sim = await startSimulator({ count: 8, families: ["statuspage"], acceleration: 0, start: "2026-05-01T00:00:00.000Z", seed: 9 });
  for (const v of sim.vendors) {
    addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    setHookSecretHash(db, v.slug, createHash("sha256").update(`${SECRET}-${v.slug}`).digest("hex"));
  }
  alertServer = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      alerts.push(JSON.parse(body) as { scope: string; throttled: number });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => alertServer.listen(0, "127.0.0.1", () => resolve()));
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  hookServer = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests", "support", "hook-server.ts"), dbFile, String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      REDLINE_HOOK_RATE_PER_SECOND: "5",
      REDLINE_HOOK_BURST: "20",
      REDLINE_HOOK_CEILING_PER_SECOND: "200",
      REDLINE_HOOK_CEILING_BURST: "400",
      REDLINE_HOOK_DEBOUNCE_SECONDS: "2",
      REDLINE_ALERT_INTERVAL_SECONDS: String(ALERT_INTERVAL_S),
      REDLINE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${(alertServer.address() as AddressInfo).port}/alerts`,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    hookServer.stdout?.on("data", (d: Buffer) => d.toString().includes("listening") && resolve());
    hookServer.once("exit", (code) => reject(new Error(`hook server exited ${code}`)));
  });
}, 60_000);

afterAll(async () => {
  hookServer.kill("SIGTERM");
  await sim.stop();
  await new Promise<void>((resolve) => alertServer.close(() => resolve()));
  closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a webhook flood", () => {
  it("is throttled and collapsed while the other source and scheduled polling keep their pace, alerting once per interval", async () => {
    const [flood, calm, ...scheduled] = sim.vendors.map((v) => v.slug);
    if (!flood || !calm) throw new Error("too few simulated vendors");
    // Scheduled polling of the others, every second, measured by the gaps between their polls.
    const polledAt = new Map<string, number[]>();
    const scheduler = new Scheduler(
      simulatorPollDeps(db, sim, {
        client: createHttpClient({ userAgent: "Redline/test", connectTimeoutMs: 1_000, responseTimeoutMs: 2_000, maxBodyBytes: 8 * 1024 * 1024, maxRedirects: 3, allowPrivate: true }),
      }),
      {
        concurrency: 4,
        policy: { intervalMs: POLL_INTERVAL_MS, maxBackoffMs: 60_000, jitter: 0 },
        tickMs: 100,
        onPolled: (vendor) => polledAt.set(vendor.slug, [...(polledAt.get(vendor.slug) ?? []), Date.now()]),
      },
    );
    const polling = scheduler.run();

    // The well-behaved source: one new update a second, each timed.
    const calmLatencies: number[] = [];
    const calmStatuses: number[] = [];
    let calmRunning = true;
    const calmLoop = (async () => {
      for (let n = 0; calmRunning; n += 1) {
        const started = performance.now();
        const response = await fetch(`${base}/api/v1/hooks/${calm}/${SECRET}-${calm}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: payload("calm-1", `Calm update ${n}`, `calm-${n}`),
        });
        await response.arrayBuffer();
        calmLatencies.push(performance.now() - started);
        calmStatuses.push(response.status);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const statuses = new Map<number, number>();
    let sent = 0;
    const startedAt = Date.now();
    await autocannon({
      url: base,
      connections: 20,
      amount: FLOOD,
      overallRate: FLOOD_RATE,
      timeout: 10,
      requests: [
        {
          method: "POST",
          path: `/api/v1/hooks/${flood}/${SECRET}-${flood}`,
          headers: { "content-type": "application/json" },
          // A fresh event id every time; the content cycles through 8 versions: replays.
          setupRequest: (request) => ({ ...request, body: payload("flood-1", `Flood update ${sent % 8}`, `evt-${sent++}-${Math.random()}`) }),
          onResponse: (status) => statuses.set(status, (statuses.get(status) ?? 0) + 1),
        },
      ],
    });
    const floodSeconds = (Date.now() - startedAt) / 1000;
    calmRunning = false;
    await calmLoop;
    // Let the push lane take the debounced poll of the flooding vendor.
    await new Promise((r) => setTimeout(r, 2_500));
    scheduler.stop();
    await polling;
    await new Promise((r) => setTimeout(r, 500));

    const accepted = statuses.get(202) ?? 0;
    const collapsed = statuses.get(200) ?? 0;
    const throttled = statuses.get(429) ?? 0;
    const sorted = [...calmLatencies].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    const gaps = scheduled.flatMap((slug) => {
      const times = polledAt.get(slug) ?? [];
      return times.slice(1).map((t, i) => t - (times[i] ?? t));
    });
    const worstGap = Math.max(...gaps);
    const floodAlerts = alerts.filter((a) => a.scope === `source:${flood}`).length;
    console.log(
      `flood: ${FLOOD} pushes in ${floodSeconds.toFixed(1)} s: ${accepted} accepted, ${collapsed} collapsed (replays), ${throttled} throttled; ` +
        `${floodAlerts} alerts for the flooding source (interval ${ALERT_INTERVAL_S} s), ${alerts.length - floodAlerts} others; ` +
        `other source: ${calmStatuses.length} pushes, p99 ${p99.toFixed(1)} ms; scheduled polls: worst gap ${worstGap} ms for a ${POLL_INTERVAL_MS} ms interval`,
    );

    expect(accepted + collapsed + throttled).toBe(FLOOD);
    expect(throttled).toBeGreaterThan(FLOOD * 0.9);
    expect(collapsed).toBeGreaterThan(0);
    // Content was taken at most once each.
    const floodDeliveries = db.$client.prepare("SELECT count(*) AS n FROM hook_deliveries d JOIN vendors v ON v.id = d.vendor_id WHERE v.slug = ?").get(flood) as { n: number };
    expect(floodDeliveries.n).toBeLessThanOrEqual(8);
    expect(floodDeliveries.n).toBe(accepted);
    // Nothing legitimate lost: every push of the other source taken, promptly.
    expect(calmStatuses.length).toBeGreaterThan(floodSeconds);
    expect(calmStatuses.every((s) => s === 202)).toBe(true);
    const calmDeliveries = db.$client.prepare("SELECT count(*) AS n FROM hook_deliveries d JOIN vendors v ON v.id = d.vendor_id WHERE v.slug = ?").get(calm) as { n: number };
    expect(calmDeliveries.n).toBe(calmStatuses.length);
    expect(p99).toBeLessThan(500);
    // Scheduled polling kept its pace.
    expect(gaps.length).toBeGreaterThan(scheduled.length * 5);
    expect(worstGap).toBeLessThan(POLL_INTERVAL_MS * 3);
    // One alert per interval for the flood, none for the well-behaved source or the ceiling.
    expect(floodAlerts).toBeGreaterThanOrEqual(Math.floor(floodSeconds / ALERT_INTERVAL_S));
    expect(floodAlerts).toBeLessThanOrEqual(Math.ceil(floodSeconds / ALERT_INTERVAL_S) + 1);
    expect(alerts.every((a) => a.scope === `source:${flood}`)).toBe(true);
    const telemetry = listThrottleTelemetry(db);
    expect(telemetry.find((r) => r.scope === `source:${flood}`)?.throttled).toBe(throttled);
    // The push lane polled the flooding vendor, folded into few polls.
    expect((polledAt.get(flood) ?? []).length).toBeGreaterThan(0);
  }, 120_000);
});
