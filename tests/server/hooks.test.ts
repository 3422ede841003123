import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RedlineDb } from "@/db/client";
import { listThrottleTelemetry, setHookSecretHash } from "@/db/operations/hooks";
import { versionsOfCapture } from "@/db/queries/capture-versions";
import { addVendor } from "@/db/settings/vendors";
import { createFailureLimit, type FailureLimit } from "@/server/failure-limit";
import { trustProxies } from "@/server/http/client-address";
import { createHookHandler, type HookSettings, hookContentHash } from "@/server/hooks/hook-route";
import { type ThrottleAlert, ThrottleTelemetry } from "@/server/hooks/throttle-telemetry";
import { countRows, freshDatabase, queryRows } from "@/tests/support/database";

const SECRET = "s3cret-for-acme-0123456789";
let server: http.Server | undefined;
let db: RedlineDb;
let clock = 0;
let alerts: ThrottleAlert[] = [];
let telemetry: ThrottleTelemetry;

const SETTINGS: HookSettings = {
  perSource: { ratePerSecond: 1, burst: 3 },
  ceiling: { ratePerSecond: 100, burst: 100 },
  maxBodyBytes: 4_096,
  debounceMs: 10_000,
};

beforeEach(async () => {
  db = await freshDatabase();
  clock = Date.parse("2026-05-01T00:00:00.000Z");
  alerts = [];
  for (const slug of ["acme", "calm"]) {
    await addVendor(db, { slug, name: slug, platform: "statuspage", url: `https://status.${slug}.example` }, "user");
    await setHookSecretHash(db, slug, createHash("sha256").update(`${SECRET}-${slug}`).digest("hex"));
  }
});

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(settings: HookSettings = SETTINGS, onVersionsRecorded?: (captureId: number) => void, failures?: FailureLimit): Promise<string> {
  telemetry = new ThrottleTelemetry(() => db, 3_600_000, (a) => alerts.push(a));
  const hooks = createHookHandler({ db: () => db, settings, telemetry, now: () => clock, ...(onVersionsRecorded ? { onVersionsRecorded } : {}), ...(failures ? { failures } : {}) });
  server = http.createServer((req, res) => {
    void hooks(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function incidentPayload(eventId: string, name = "Webhook deliveries delayed") {
  return {
    meta: { unsubscribe: "https://status.acme.example/unsub", generated_at: new Date(clock).toISOString(), event_id: eventId },
    page: { id: "acme-page", status_indicator: "minor", status_description: "Minor Service Outage" },
    incident: {
      id: "inc-1", name, status: "investigating", impact: "minor", created_at: "2026-05-01T00:00:00.000Z", updated_at: "2026-05-01T00:00:00.000Z",
      started_at: "2026-05-01T00:00:00.000Z", resolved_at: null, shortlink: "https://stspg.io/x", components: [],
      incident_updates: [{ id: "u-1", status: "investigating", body: "We are looking into it.", created_at: "2026-05-01T00:00:00.000Z", display_at: "2026-05-01T00:00:00.000Z", updated_at: "2026-05-01T00:00:00.000Z" }],
      page_id: "acme-page", postmortem_body: null, postmortem_published_at: null, scheduled_for: null, scheduled_until: null,
    },
  };
}

async function push(base: string, slug: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/api/v1/hooks/${slug}/${SECRET}-${slug}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

describe("webhook pushes", () => {
  it("pushes to addresses with no webhook spend the client's failure budget, then wait without a read; the logs name no secret", async () => {
    const log: string[] = [];
    const base = await serve(SETTINGS, undefined, createFailureLimit({ burst: 2, intervalSeconds: 10, trust: trustProxies([]) }, (line) => log.push(line), () => clock));
    const guess = (slug: string) => fetch(`${base}/api/v1/hooks/${slug}/guessed-secret-0123`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect([(await guess("nobody")).status, (await guess("acme")).status]).toEqual([404, 404]);
    // A read now would fail (and "calm" was never read, so not kept): the refusal comes first.
    const closed = db;
    db = undefined as unknown as RedlineDb;
    const refused = await guess("calm");
    db = closed;
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("10");
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(log).toEqual([
      "push to an address with no webhook from 127.0.0.1 (POST /api/v1/hooks/…); 1 more before it waits",
      "push to an address with no webhook from 127.0.0.1 (POST /api/v1/hooks/…); it waits 10 s",
    ]);
    clock += 10_000;
    expect((await push(base, "acme", incidentPayload("evt-1"))).status).toBe(202);
  });

  it("records a Statuspage incident push as a capture and schedules one debounced poll", async () => {
    const base = await serve();
    const first = await push(base, "acme", incidentPayload("evt-1"));
    expect(first.status).toBe(202);
    expect(first.body.versionsAdded).toBe(1);
    const poll = await queryRows<{ dueAt: string }>(db, "SELECT due_at AS dueAt FROM push_polls");
    expect(poll).toEqual([{ dueAt: new Date(clock + 10_000).toISOString() }]);
    clock += 1_000;
    const edited = await push(base, "acme", incidentPayload("evt-2", "Webhook deliveries delayed in Europe"));
    expect(edited.status).toBe(202);
    // Still one poll waiting, due when the first push asked for it.
    expect(await countRows(db, "push_polls")).toBe(1);
    expect(await countRows(db, "incident_versions")).toBe(2);
  });

  it("tells the WebSub pinger which capture a push recorded versions in, and stays quiet on a replay", async () => {
    const recorded: number[] = [];
    const base = await serve(SETTINGS, (captureId) => recorded.push(captureId));
    expect((await push(base, "acme", incidentPayload("evt-1"))).status).toBe(202);
    expect(recorded).toHaveLength(1);
    expect(await versionsOfCapture(db, recorded[0] ?? -1)).toEqual([{ vendorSlug: "acme", providerId: "inc-1", kinds: ["incident-new"], watchlists: [] }]);
    clock += 1_000;
    expect((await push(base, "acme", incidentPayload("evt-2"))).body.status).toBe("duplicate");
    expect(recorded).toHaveLength(1);
  });

  it("collapses a replay of the same content, whatever its event id, doing no work", async () => {
    const base = await serve({ ...SETTINGS, perSource: { ratePerSecond: 1, burst: 100 } });
    expect((await push(base, "acme", incidentPayload("evt-1"))).status).toBe(202);
    const captures = await countRows(db, "captures");
    for (let i = 2; i < 50; i += 1) {
      clock += 10;
      const replay = await push(base, "acme", { ...incidentPayload(`evt-${i}`), id: `delivery-${i}` });
      expect(replay).toMatchObject({ status: 200, body: { status: "duplicate" } });
    }
    expect(await countRows(db, "captures")).toBe(captures);
    expect(await countRows(db, "hook_deliveries")).toBe(1);
    expect(hookContentHash({ meta: { a: 1 }, incident: { x: 1, y: 2 } })).toBe(hookContentHash({ id: "other", incident: { y: 2, x: 1 } }));
  });

  it("answers an unknown vendor and a wrong secret alike, and only POSTs", async () => {
    const base = await serve();
    const wrong = await fetch(`${base}/api/v1/hooks/acme/not-the-secret`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const unknown = await fetch(`${base}/api/v1/hooks/nobody/${SECRET}-nobody`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual(await unknown.json());
    expect((await fetch(`${base}/api/v1/hooks/acme/${SECRET}-acme`)).status).toBe(405);
  });

  it("refuses oversized, non-JSON and malformed bodies with a clear 4xx, storing nothing", async () => {
    const base = await serve({ ...SETTINGS, perSource: { ratePerSecond: 1, burst: 100 } });
    const big = await push(base, "acme", { incident: { name: "x".repeat(10_000) } });
    expect(big).toMatchObject({ status: 413, body: { detail: expect.stringContaining("4096 bytes") } });
    expect((await push(base, "acme", "{}", { "content-type": "text/plain" })).status).toBe(415);
    expect(await push(base, "acme", '{"incident": {')).toMatchObject({ status: 400, body: { detail: expect.stringMatching(/not JSON/) } });
    expect((await push(base, "acme", "[1, 2]")).status).toBe(400);
    for (const table of ["hook_deliveries", "captures", "push_polls", "incident_versions"]) expect(await countRows(db, table)).toBe(0);
  });

  it("throttles one source over its budget with 429 and Retry-After while another source goes on", async () => {
    const base = await serve();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await push(base, "acme", { n: i })).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429, 429]);
    const refused = await push(base, "acme", { n: 99 });
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await push(base, "calm", { n: 1 })).status).toBe(202);
    // Refusals deepen the debt, but only so far: after a quiet spell the source is served again.
    clock += 10_000;
    expect((await push(base, "acme", { n: 100 })).status).toBe(202);
  });

  it("checks the ceiling over all sources first", async () => {
    const base = await serve({ ...SETTINGS, perSource: { ratePerSecond: 100, burst: 100 }, ceiling: { ratePerSecond: 1, burst: 4 } });
    for (let i = 0; i < 4; i += 1) expect((await push(base, "acme", { n: i })).status).toBe(202);
    expect((await push(base, "calm", { n: 1 })).status).toBe(429);
    await telemetry.flush();
    expect((await listThrottleTelemetry(db)).map((r) => r.scope)).toEqual(["ceiling"]);
  });

  it("lets no single flooding source use up the ceiling the other sources share", async () => {
    const base = await serve({ ...SETTINGS, perSource: { ratePerSecond: 1, burst: 3 }, ceiling: { ratePerSecond: 1, burst: 5 } });
    for (let i = 0; i < 20; i += 1) await push(base, "acme", { n: i });
    expect((await push(base, "calm", { n: 1 })).status).toBe(202);
  });

  it("counts every refusal, and alerts once per scope and interval however long the flood", async () => {
    const base = await serve();
    for (let i = 0; i < 40; i += 1) {
      clock += 100;
      await push(base, "acme", { n: i });
    }
    await telemetry.flush();
    const rows = await listThrottleTelemetry(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ scope: "source:acme", lastThrottledAt: new Date(clock).toISOString() });
    expect(rows[0]?.throttled).toBeGreaterThan(25);
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toMatchObject({ scope: "source:acme", limit: { ratePerSecond: 1, burst: 3 } });
    // An hour on, the flood still going: one more alert, counting what was refused meanwhile.
    clock += 3_600_000;
    for (let i = 0; i < 10; i += 1) await push(base, "acme", { n: 1_000 + i });
    expect(alerts).toHaveLength(2);
    expect(alerts[1]?.throttled).toBeGreaterThan(20);
  });
});
