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
import { setHookSecretHash } from "@/db/operations/hooks";
import { addVendor } from "@/db/settings/vendors";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { type Simulator, startSimulator } from "@/simulator/server";
import { countRows } from "@/tests/support/database";
import { childGone, waitFor } from "@/tests/support/observe";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

/**
 * The replay-loop incident, re-enacted: one source pushes 50,000 times at a steady rate with a
 * fresh event id each time and its content cycling (replays), while a second source pushes
 * normally and the poller keeps its schedule. The hook endpoint runs in a process of its own, as
 * the web process does in production; the poller runs here, beside a control poller over a
 * database no push reaches, so "kept its pace" is measured against the same machine at the same
 * moment. How fast any of it is belongs to no assertion here: the figures are printed only.
 */
const ROOT = path.resolve(__dirname, "..", "..");
const FLOOD = 50_000;
const FLOOD_RATE = 1_500;
const FLOOD_CONNECTIONS = 20;
const SOURCE_RATE = 5;
const SOURCE_BURST = 20;
const ALERT_INTERVAL_S = 4;
const POLL_INTERVAL_MS = 1_000;
const SECRET = "flood-test-secret-0123456789";
/**
 * Flood answers that may arrive while one push of the other source is in flight: each flood
 * connection has one request out at a time, so a push that waits its turn sees a few rounds of
 * them; one held behind the flood would see the flood's whole rate for as long as it waited.
 */
const FLOOD_ANSWERS_PER_CALM_PUSH = 10 * FLOOD_CONNECTIONS;

let dir: string;
let dbFile: string;
let db: RedlineDb;
let control: RedlineDb;
let sim: Simulator;
let hookServer: ChildProcess;
let alertServer: http.Server;
const alerts: { scope: string; at: string; throttled: number }[] = [];
let base = "";

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

function scheduler(database: RedlineDb, polled: Map<string, { ok: number; failed: number }>): Scheduler {
  return new Scheduler(simulatorPollDeps(database, sim), {
    concurrency: 4,
    policy: { intervalMs: POLL_INTERVAL_MS, maxBackoffMs: 60_000, jitter: 0 },
    tickMs: 100,
    onPolled: (vendor, result) => {
      const seen = polled.get(vendor.slug) ?? { ok: 0, failed: 0 };
      polled.set(vendor.slug, result.ok ? { ...seen, ok: seen.ok + 1 } : { ...seen, failed: seen.failed + 1 });
    },
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-flood-"));
  dbFile = path.join(dir, "redline.db");
  db = openDatabase(dbFile);
  control = openDatabase(path.join(dir, "control.db"));
  sim = await startSimulator({ count: 8, families: ["statuspage"], acceleration: 0, start: "2026-05-01T00:00:00.000Z", seed: 9 });
  for (const v of sim.vendors) {
    await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    await addVendor(control, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    await setHookSecretHash(db, v.slug, createHash("sha256").update(`${SECRET}-${v.slug}`).digest("hex"));
  }
  alertServer = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      alerts.push(JSON.parse(body) as { scope: string; at: string; throttled: number });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => alertServer.listen(0, "127.0.0.1", () => resolve()));
  hookServer = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests", "support", "hook-server.ts"), dbFile, "0"], {
    cwd: ROOT,
    env: {
      ...process.env,
      REDLINE_HOOK_RATE_PER_SECOND: String(SOURCE_RATE),
      REDLINE_HOOK_BURST: String(SOURCE_BURST),
      REDLINE_HOOK_CEILING_PER_SECOND: "200",
      REDLINE_HOOK_CEILING_BURST: "400",
      REDLINE_HOOK_DEBOUNCE_SECONDS: "2",
      REDLINE_ALERT_INTERVAL_SECONDS: String(ALERT_INTERVAL_S),
      REDLINE_ALERT_WEBHOOK_URL: `http://127.0.0.1:${(alertServer.address() as AddressInfo).port}/alerts`,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let printed = "";
  hookServer.stdout?.on("data", (d: Buffer) => (printed += d.toString()));
  await waitFor("the hook server to listen", () => /listening on \d+/.test(printed), () => childGone(hookServer));
  base = `http://127.0.0.1:${/listening on (\d+)/.exec(printed)?.[1] ?? ""}`;
}, 120_000);

afterAll(async () => {
  if (childGone(hookServer) === null) {
    const exited = new Promise((resolve) => hookServer.once("exit", resolve));
    hookServer.kill("SIGTERM");
    await exited;
  }
  await sim.stop();
  await new Promise<void>((resolve) => alertServer.close(() => resolve()));
  closeDatabase(db);
  closeDatabase(control);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a webhook flood", () => {
  it("is throttled and collapsed while the other source and scheduled polling keep their pace, alerting once per interval", async () => {
    const [flood, calm, ...scheduled] = sim.vendors.map((v) => v.slug);
    if (!flood || !calm) throw new Error("too few simulated vendors");
    const polled = new Map<string, { ok: number; failed: number }>();
    const controlPolled = new Map<string, { ok: number; failed: number }>();
    const polling = scheduler(db, polled);
    const controlPolling = scheduler(control, controlPolled);
    const running = [polling.run(), controlPolling.run()];

    // Flood answers counted as they arrive, so a push of the other source can see how many passed it.
    let floodAnswers = 0;
    // The well-behaved source: one new update at most every 250 ms, well within its own rate.
    const calmStatuses: number[] = [];
    const passedPerCalmPush: number[] = [];
    let calmRunning = true;
    const calmLoop = (async () => {
      for (let n = 0; calmRunning; n += 1) {
        const answersBefore = floodAnswers;
        const response = await fetch(`${base}/api/v1/hooks/${calm}/${SECRET}-${calm}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: payload("calm-1", `Calm update ${n}`, `calm-${n}`),
        });
        await response.arrayBuffer();
        passedPerCalmPush.push(floodAnswers - answersBefore);
        calmStatuses.push(response.status);
        await new Promise((r) => setTimeout(r, 250));
      }
    })();

    const statuses = new Map<number, number>();
    let sent = 0;
    const startedAt = Date.now();
    await autocannon({
      url: base,
      connections: FLOOD_CONNECTIONS,
      amount: FLOOD,
      overallRate: FLOOD_RATE,
      timeout: 60,
      requests: [
        {
          method: "POST",
          path: `/api/v1/hooks/${flood}/${SECRET}-${flood}`,
          headers: { "content-type": "application/json" },
          // A fresh event id every time; the content cycles through 8 versions: replays.
          setupRequest: (request) => ({ ...request, body: payload("flood-1", `Flood update ${sent % 8}`, `evt-${sent++}-${Math.random()}`) }),
          onResponse: (status) => {
            floodAnswers += 1;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          },
        },
      ],
    });
    const floodSeconds = (Date.now() - startedAt) / 1000;
    calmRunning = false;
    await calmLoop;
    const accepted = statuses.get(202) ?? 0;
    const collapsed = statuses.get(200) ?? 0;
    const throttled = statuses.get(429) ?? 0;
    // The push lane takes the debounced polls the pushes asked for; the hook server writes its
    // refusal counts and sends its last alert. Each is waited for as it shows, not for a while.
    await waitFor("the push lane to take every push poll", async () => (await countRows(db, "push_polls")) === 0);
    polling.stop();
    controlPolling.stop();
    await Promise.all(running);
    const telemetryOf = (scope: string) =>
      db.$client
        .prepare<[string], { throttled: number; lastThrottledAt: string; lastAlertAt: string | null }>(
          "SELECT throttled, last_throttled_at AS lastThrottledAt, last_alert_at AS lastAlertAt FROM throttle_telemetry WHERE scope = ?",
        )
        .get(scope);
    await waitFor("the hook server to write every refusal", () => telemetryOf(`source:${flood}`)?.throttled === throttled, () => childGone(hookServer));
    const lastAlertAt = telemetryOf(`source:${flood}`)?.lastAlertAt;
    await waitFor("the last alert to arrive", () => alerts.some((a) => a.at === lastAlertAt), () => childGone(hookServer));

    const floodAlerts = alerts.filter((a) => a.scope === `source:${flood}`);
    const sorted = [...passedPerCalmPush].sort((a, b) => a - b);
    console.log(
      `flood: ${FLOOD} pushes in ${floodSeconds.toFixed(1)} s: ${accepted} accepted, ${collapsed} collapsed (replays), ${throttled} throttled; ` +
        `${floodAlerts.length} alerts for the flooding source (interval ${ALERT_INTERVAL_S} s), ${alerts.length - floodAlerts.length} others; ` +
        `other source: ${calmStatuses.length} pushes, flood answers passing one: median ${sorted[Math.floor(sorted.length / 2)] ?? 0}, most ${sorted.at(-1) ?? 0}; ` +
        `scheduled polls: ${scheduled.map((slug) => `${polled.get(slug)?.ok ?? 0}/${controlPolled.get(slug)?.ok ?? 0}`).join(" ")} (beside the flood / control)`,
    );

    expect(accepted + collapsed + throttled).toBe(FLOOD);
    // The source's bucket lets through its burst and its rate over the flood's span, however long that took.
    expect(accepted + collapsed).toBeLessThanOrEqual(SOURCE_BURST + Math.ceil(SOURCE_RATE * floodSeconds));
    expect(collapsed).toBeGreaterThan(0);
    // Content was taken at most once each.
    const floodDeliveries = db.$client.prepare("SELECT count(*) AS n FROM hook_deliveries d JOIN vendors v ON v.id = d.vendor_id WHERE v.slug = ?").get(flood) as { n: number };
    expect(floodDeliveries.n).toBeLessThanOrEqual(8);
    expect(floodDeliveries.n).toBe(accepted);
    // Nothing legitimate lost: every push of the other source taken, each after only its turn behind the flood.
    expect(calmStatuses.length).toBeGreaterThan(1);
    expect(calmStatuses.every((s) => s === 202)).toBe(true);
    const calmDeliveries = db.$client.prepare("SELECT count(*) AS n FROM hook_deliveries d JOIN vendors v ON v.id = d.vendor_id WHERE v.slug = ?").get(calm) as { n: number };
    expect(calmDeliveries.n).toBe(calmStatuses.length);
    expect(Math.max(...passedPerCalmPush)).toBeLessThanOrEqual(FLOOD_ANSWERS_PER_CALM_PUSH);
    // Scheduled polling kept its pace: no poll failed, none backed off, and each vendor was
    // polled about as often as by the control poller beside it (at most a tenth fewer, and one).
    for (const slug of scheduled) {
      const beside = polled.get(slug) ?? { ok: 0, failed: 0 };
      const alone = controlPolled.get(slug) ?? { ok: 0, failed: 0 };
      expect(beside.failed, slug).toBe(0);
      expect(alone.ok, slug).toBeGreaterThan(5);
      expect(beside.ok, slug).toBeGreaterThanOrEqual(Math.floor(alone.ok * 0.9) - 1);
    }
    // At most one alert per interval for the flood, repeated while it lasted, none for the
    // well-behaved source or the ceiling.
    expect(floodAlerts.length).toBeGreaterThan(1);
    const alertTimes = floodAlerts.map((a) => Date.parse(a.at)).sort((a, b) => a - b);
    for (let i = 1; i < alertTimes.length; i += 1) expect((alertTimes[i] ?? 0) - (alertTimes[i - 1] ?? 0)).toBeGreaterThanOrEqual(ALERT_INTERVAL_S * 1000);
    const lastRefusal = Date.parse(telemetryOf(`source:${flood}`)?.lastThrottledAt ?? "");
    expect(lastRefusal - (alertTimes.at(-1) ?? 0)).toBeLessThan(ALERT_INTERVAL_S * 1000);
    expect(floodAlerts.reduce((n, a) => n + a.throttled, 0)).toBeLessThanOrEqual(throttled);
    expect(alerts.every((a) => a.scope === `source:${flood}`)).toBe(true);
    // The push lane polled the flooding vendor, folded into few polls.
    expect(polled.get(flood)?.ok ?? 0).toBeGreaterThan(0);
  }, 600_000);
});
