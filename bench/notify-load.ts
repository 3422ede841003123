/**
 * Notification benchmark. (1) Deliveries per second: 1,000 webhook subscriptions, two changes each
 * (2,000 signed messages) to a local receiver, through the real notifier rounds. (2) A poll round of
 * simulated vendors whose every incident is new, with 1,000 active subscriptions matching all of it
 * beside the same round with none: what the outbox adds to polling. Alternated, medians of 3.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { closeDatabase, openDatabase } from "@/db/client";
import { addSubscription } from "@/db/notifications/subscriptions";
import { addVendor, ensureVendor } from "@/db/settings/vendors";
import { readEnv } from "@/lib/env";
import { subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import { createNotifyDeps } from "@/scrapers/cli/create-notifier";
import { runDeliveryRound } from "@/notify/deliver";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { createPollDeps, createScheduler } from "@/scrapers/poller/create-poller";
import { getPlatform } from "@/scrapers/platforms";
import { startSimulator } from "@/simulator/server";

const SUBSCRIPTIONS = 1_000;
const VENDORS = Number(process.env.BENCH_VENDORS ?? 200);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function deliveriesPerSecond(dir: string): Promise<void> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const db = openDatabase(path.join(dir, "deliver.db"));
  try {
    const platform = getPlatform("statuspage-incident");
    if (!platform) throw new Error("bench: no statuspage-incident parser");
    const vendor = await ensureVendor(db, { slug: "acme", platform: platform.name });
    for (let i = 0; i < SUBSCRIPTIONS; i += 1) {
      await addSubscription(db, { target: `http://127.0.0.1:${port}/hook/${i}`, format: "webhook", filter: subscriptionFilterSchema.parse({}), watchlist: null, digest: null });
    }
    const body = (status: string) =>
      Buffer.from(JSON.stringify({ page: { id: "p", name: "Acme", url: "https://status.acme.test", updated_at: "2026-03-01T10:05:00Z" }, incident: {
        id: "inc1", name: "Elevated API errors", status, impact: "minor", created_at: "2026-03-01T10:00:00Z", updated_at: "2026-03-01T10:05:00Z", started_at: "2026-03-01T10:00:00Z",
        resolved_at: null, shortlink: "https://stspg.io/x", components: [], incident_updates: [{ id: "u1", status, body: "Investigating.", created_at: "2026-03-01T10:02:00Z", updated_at: "2026-03-01T10:02:00Z", display_at: "2026-03-01T10:02:00Z" }],
      } }));
    await ingestSnapshot(db, { vendor, platform, source: "inc1.json", observedAt: "2026-03-01T10:10:00.000Z", body: body("investigating"), notify: true });
    await ingestSnapshot(db, { vendor, platform, source: "inc1.json", observedAt: "2026-03-01T10:20:00.000Z", body: body("identified"), notify: true });
    const env = readEnv({ ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1" });
    const deps = createNotifyDeps(db, env);
    const started = performance.now();
    const cpu = process.cpuUsage();
    let delivered = 0;
    for (let round = 0; round < 100 && delivered < 2 * SUBSCRIPTIONS; round += 1) delivered += (await runDeliveryRound(deps)).delivered;
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    console.log(`deliveries: ${delivered} signed webhooks (${received} received) in ${seconds.toFixed(2)} s: ${(delivered / seconds).toFixed(0)}/s at concurrency ${env.REDLINE_NOTIFY_CONCURRENCY}, ${((used.user + used.system) / 1000 / delivered).toFixed(2)} ms CPU each (notifier and receiver in one process)`);
  } finally {
    closeDatabase(db);
    server.close();
  }
}

async function pollRound(dir: string, name: string, subscriptions: number): Promise<{ ms: number; versions: number; notifications: number }> {
  const sim = await startSimulator({ count: VENDORS, families: ["statuspage-incidents"], acceleration: 0, start: "2026-03-04T12:00:00.000Z", seed: 11 });
  const file = path.join(dir, `${name}.db`);
  const db = openDatabase(file);
  try {
    for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
    for (let i = 0; i < subscriptions; i += 1) {
      await addSubscription(db, { target: `https://hooks.example/${i}`, format: "webhook", filter: subscriptionFilterSchema.parse(i % 2 === 0 ? {} : { minImpact: "minor" }), watchlist: null, digest: null });
    }
    const env = readEnv({ ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0", REDLINE_POLL_CONCURRENCY: "32" });
    const scheduler = createScheduler(createPollDeps(db, env), env);
    const started = performance.now();
    const round = await scheduler.runOnce();
    const ms = performance.now() - started;
    const notifications = (db.$client.prepare("SELECT count(*) AS n FROM outbox_versions").get() as { n: number }).n;
    return { ms, versions: round.versionsAdded, notifications };
  } finally {
    closeDatabase(db);
    await sim.stop();
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  }
}

export async function runNotifyBenchmark(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-notify-"));
  try {
    await deliveriesPerSecond(dir);
    const without: number[] = [];
    const withSubs: number[] = [];
    let last = { versions: 0, notifications: 0 };
    for (let k = 0; k < 3; k += 1) {
      without.push((await pollRound(dir, `without-${k}`, 0)).ms);
      const r = await pollRound(dir, `with-${k}`, SUBSCRIPTIONS);
      withSubs.push(r.ms);
      last = r;
    }
    console.log(`poll round of ${VENDORS} vendors, ${last.versions} new versions: ${median(without).toFixed(0)} ms without subscriptions, ${median(withSubs).toFixed(0)} ms with ${SUBSCRIPTIONS} (${last.notifications} outbox rows written, matched later by the notifier): ${(median(withSubs) / median(without)).toFixed(2)}x (runs: ${without.map((x) => x.toFixed(0)).join(", ")} / ${withSubs.map((x) => x.toFixed(0)).join(", ")})`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
