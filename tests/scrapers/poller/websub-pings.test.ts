import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { addVendor } from "@/db/settings/vendors";
import { incidentKey } from "@/lib/incident-key";
import { Scheduler } from "@/scrapers/poller/scheduler";
import { readEnv } from "@/lib/env";
import { createWebSubPinger, WebSubPinger } from "@/scrapers/poller/websub-pings";
import { lifecycleEvents } from "@/simulator/scenario";
import { type Simulator, startSimulator } from "@/simulator/server";
import { freshDatabase } from "@/tests/support/database";
import { waitFor } from "@/tests/support/observe";
import { simulatorPollDeps } from "@/tests/support/poll-deps";

const START = "2026-03-02T00:00:00.000Z";
const ORIGIN = "https://redline.example.org";

interface Hub {
  url: string;
  pings: { contentType: string; form: URLSearchParams }[];
  stop(): Promise<void>;
}

/** A hub on loopback that answers every publish ping with `status`, or never ("hang"). */
async function startHub(answer: number | "hang"): Promise<Hub> {
  const pings: Hub["pings"] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      pings.push({ contentType: req.headers["content-type"] ?? "", form: new URLSearchParams(Buffer.concat(chunks).toString("utf8")) });
      if (answer !== "hang") res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hub`,
    pings,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

let sim: Simulator | null = null;
let hub: Hub | null = null;
afterEach(async () => {
  await sim?.stop();
  await hub?.stop();
  sim = null;
  hub = null;
});

/** A simulated Statuspage vendor polled once, then again just after its first incident is created, pinging for the second round only. */
async function pollNewIncident(db: RedlineDb, pinger: WebSubPinger) {
  sim = await startSimulator({ vendors: [{ slug: "acme", family: "statuspage" }], acceleration: 0, start: START, seed: 3 });
  for (const v of sim.vendors) await addVendor(db, { slug: v.slug, name: v.name, platform: v.family, url: v.url }, "user");
  let armed = false;
  const scheduler = new Scheduler(
    simulatorPollDeps(db, sim, { onVersionsRecorded: (captureId) => {
      if (armed) pinger.published(captureId);
    } }),
    { concurrency: 1, policy: { intervalMs: 60_000, maxBackoffMs: 3_600_000, jitter: 0 } },
  );
  await scheduler.runOnce();
  armed = true;
  const created = lifecycleEvents(sim.vendor("acme").scenario, START, Date.parse(START) + 12 * 86_400_000).find((e) => e.kind === "incident-created");
  if (!created?.incidentId) throw new Error("the scenario creates no incident");
  sim.setClock(new Date(Date.parse(created.at) + 1_000).toISOString());
  const round = await scheduler.runOnce();
  return { round, incident: `${ORIGIN}/vendors/acme/incidents/${incidentKey(created.incidentId)}` };
}

describe("WebSub publish pings", () => {
  it("reach the hub, form-encoded, for every feed a polled version appears in", async () => {
    hub = await startHub(204);
    const log: string[] = [];
    const db = await freshDatabase();
    const pinger = new WebSubPinger({ hub: hub.url, origin: ORIGIN, db: () => db, log: (l) => log.push(l) });
    const { round, incident } = await pollNewIncident(db, pinger);
    expect(round.versionsAdded).toBeGreaterThan(0);
    await pinger.drain();
    const topics = hub.pings.map((p) => p.form.get("hub.url"));
    for (const p of hub.pings) {
      expect(p.contentType).toBe("application/x-www-form-urlencoded");
      expect(p.form.get("hub.mode")).toBe("publish");
    }
    for (const format of ["atom", "rss", "json"]) {
      expect(topics).toContain(`${incident}/feed.${format}`);
      expect(topics).toContain(`${ORIGIN}/feed.${format}`);
      expect(topics).toContain(`${ORIGIN}/vendors/acme/feed.${format}`);
      expect(topics).toContain(`${ORIGIN}/kinds/incident-new/feed.${format}`);
      expect(topics).toContain(`${ORIGIN}/vendors/acme/kinds/incident-new/feed.${format}`);
    }
    expect(log).toEqual([]);
  });

  it("never hold up a poll when the hub does not answer, and are dropped with one log line when it times out", async () => {
    hub = await startHub("hang");
    const log: string[] = [];
    const db = await freshDatabase();
    const pinger = new WebSubPinger({ hub: hub.url, origin: ORIGIN, db: () => db, log: (l) => log.push(l), timeoutMs: 300, concurrency: 2 });
    const { round } = await pollNewIncident(db, pinger);
    expect(round.failed).toBe(0);
    expect(round.versionsAdded).toBeGreaterThan(0);
    const current = hub;
    await waitFor("a ping reaching the hanging hub", () => current.pings.length > 0);
    await pinger.drain();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^websub: ping for https:\/\/redline\.example\.org\/\S+ dropped: http:\/\/127\.0\.0\.1:\d+\/hub did not answer within 300 ms; further pings/);
  });

  it("are still waiting on a hub that never answers when the poll round has finished", async () => {
    hub = await startHub("hang");
    const log: string[] = [];
    const db = await freshDatabase();
    const pinger = new WebSubPinger({ hub: hub.url, origin: ORIGIN, db: () => db, log: (l) => log.push(l), timeoutMs: 600_000 });
    const { round } = await pollNewIncident(db, pinger);
    expect(round.failed).toBe(0);
    expect(pinger.inFlight).toBeGreaterThan(0);
    const current = hub;
    await waitFor("a ping reaching the hanging hub", () => current.pings.length > 0);
    await hub.stop();
    hub = null;
    await pinger.drain();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/unreachable; further pings are dropped silently/);
  });

  it("leave polling unharmed when the hub answers 500, and say so once", async () => {
    hub = await startHub(500);
    const log: string[] = [];
    const db = await freshDatabase();
    const pinger = new WebSubPinger({ hub: hub.url, origin: ORIGIN, db: () => db, log: (l) => log.push(l) });
    const { round } = await pollNewIncident(db, pinger);
    expect(round.failed).toBe(0);
    await pinger.drain();
    expect(hub.pings.length).toBeGreaterThan(1);
    expect(log).toHaveLength(1);
    expect(log[0]).toContain("answered 500");
  });
});

describe("createWebSubPinger", () => {
  const env = (extra: Record<string, string>) => readEnv({ ...process.env, REDLINE_WEBSUB_HUB: "", REDLINE_PUBLIC_URL: "", ...extra });

  it("makes no pinger and says nothing when no hub is set", async () => {
    const db = await freshDatabase();
    const log: string[] = [];
    expect(createWebSubPinger(() => db, env({}), (l) => log.push(l))).toBeNull();
    expect(log).toEqual([]);
  });

  it("turns pings off with one log line when the hub is set but the public origin is not", async () => {
    const db = await freshDatabase();
    const log: string[] = [];
    expect(createWebSubPinger(() => db, env({ REDLINE_WEBSUB_HUB: "https://hub.example.org/" }), (l) => log.push(l))).toBeNull();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/REDLINE_PUBLIC_URL is not.*pings are off/);
  });

  it("pings when both the hub and the public origin are set", async () => {
    const db = await freshDatabase();
    const pinger = createWebSubPinger(() => db, env({ REDLINE_WEBSUB_HUB: "https://hub.example.org/", REDLINE_PUBLIC_URL: ORIGIN }), () => {});
    expect(pinger).toBeInstanceOf(WebSubPinger);
  });
});
