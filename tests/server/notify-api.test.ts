import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { NOTIFYING_KIND_NAMES } from "@/lib/change-kinds";
import { type Api, createApi } from "@/server/api/api";
import { countRows, freshDatabase, queryRow, runSql } from "@/tests/support/database";

const ORIGIN = "http://redline.test";
const TOKEN = "operator-token-for-tests-0123456789";
const auth = { authorization: `Bearer ${TOKEN}` };
let db: RedlineDb;
let api: Api;

beforeEach(async () => {
  db = await freshDatabase();
  api = createApi(() => db);
  await ensureVendor(db, { slug: "acme", name: "Acme Cloud", platform: "statuspage-summary" });
  vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
  vi.stubEnv("REDLINE_ALLOW_PRIVATE_URLS", "0");
});
afterEach(() => vi.unstubAllEnvs());

async function call(operation: keyof Api, options: { params?: Record<string, string>; method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const request = new Request(`${ORIGIN}/api/v1/x`, {
    method: options.method ?? "GET",
    headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...(options.headers ?? auth) },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const handler = api[operation] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

const count = (table: string) => countRows(db, table);

async function subscribe(body: object): Promise<{ id: string; secret: string }> {
  const created = await call("addSubscription", { method: "POST", body });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; secret: string };
}

describe("the operator API for subscriptions", () => {
  it("refuses reads and writes without the operator token (or with a wrong one), writing nothing", async () => {
    const headers = {};
    expect((await call("addSubscription", { method: "POST", body: { target: "https://hooks.example.com/x" }, headers })).status).toBe(401);
    expect((await call("saveWatchlist", { method: "POST", body: { name: "core", vendors: ["acme"] }, headers })).status).toBe(401);
    expect((await call("listSubscriptions", { headers })).status).toBe(401);
    expect((await call("listWatchlists", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await count("subscriptions")) + (await count("watchlists"))).toBe(0);
  });

  it("returns the signing secret from the create call only, and lists and gets the subscription without it", async () => {
    const created = await call("addSubscription", { method: "POST", body: { target: "https://hooks.example.com/redline", vendors: ["acme"], kinds: ["impact-escalated"] } });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { id: string; secret: string; description: string; format: string };
    expect(body.secret).toMatch(/^whsec_/);
    expect(body).toMatchObject({ format: "webhook", description: "vendor acme, kind impact-escalated" });
    expect(created.headers.get("location")).toBe(`${ORIGIN}/api/v1/subscriptions/${body.id}`);
    const one = await call("getSubscription", { params: { id: body.id } });
    expect(one.status).toBe(200);
    const text = await one.text();
    expect(text).not.toContain("whsec_");
    expect(JSON.parse(text)).toMatchObject({ id: body.id, status: "active", pending: 0 });
    const list = (await (await call("listSubscriptions")).json()) as { data: Array<{ id: string }> };
    expect(list.data.map((s) => s.id)).toEqual([body.id]);
    expect(JSON.stringify(list)).not.toContain("whsec_");
  });

  it("infers the format and masks a chat webhook's secret path", async () => {
    const { id } = await subscribe({ target: "https://hooks.slack.com/services/T0/B0/SECRETPART" });
    const one = (await (await call("getSubscription", { params: { id } })).json()) as { format: string; target: string };
    expect(one).toEqual(expect.objectContaining({ format: "slack", target: "https://hooks.slack.com/…" }));
  });

  it.each([
    ["a loopback target", { target: "http://127.0.0.1:9/hook" }, "target", /private, loopback or link-local/],
    ["a mailto: target in the slack format", { target: "mailto:ops@example.com", format: "slack" }, "target", /email format/],
    ["an unknown change kind", { target: "https://hooks.example.com/x", kinds: ["edited"] }, "kinds", new RegExp(NOTIFYING_KIND_NAMES.join(", "))],
    ["a kind that notifies no one", { target: "https://hooks.example.com/x", kinds: ["new-source-report"] }, "kinds", /new-source-report notifies no one/],
    ["an unknown key", { target: "https://hooks.example.com/x", secret: "mine" }, "secret", /secret/],
    ["an unknown vendor", { target: "https://hooks.example.com/x", vendors: ["nobody"] }, undefined, /no vendor "nobody"/],
  ])("refuses %s as the CLI does, with a 400 naming the field, writing nothing", async (_what, body, parameter, detail) => {
    const refused = await call("addSubscription", { method: "POST", body });
    expect(refused.status).toBe(400);
    const problem = (await refused.json()) as { detail: string; parameter?: string };
    expect(problem.parameter).toBe(parameter);
    expect(problem.detail).toMatch(detail);
    expect(await count("subscriptions")).toBe(0);
  });

  it("removes a subscription, then answers 404 for it", async () => {
    const { id } = await subscribe({ target: "https://hooks.example.com/x" });
    expect(await (await call("removeSubscription", { method: "DELETE", params: { id } })).json()).toEqual({ id, removed: true });
    expect((await call("getSubscription", { params: { id } })).status).toBe(404);
    expect((await call("removeSubscription", { method: "DELETE", params: { id } })).status).toBe(404);
  });

  it("queues a test message due now for the running notifier and answers 202 with its webhook id", async () => {
    const { id } = await subscribe({ target: "https://hooks.example.com/x" });
    const before = new Date().toISOString();
    const queued = await call("testSubscription", { method: "POST", params: { id } });
    expect(queued.status).toBe(202);
    const { webhookId } = (await queued.json()) as { webhookId: string };
    const row = await queryRow<{ kind: string; status: string; due: string }>(db, "SELECT kind, status, next_attempt_at AS due FROM notification_messages WHERE webhook_id = ?", webhookId);
    expect(row).toMatchObject({ kind: "test", status: "pending" });
    expect(row !== undefined && row.due <= new Date().toISOString() && row.due >= before).toBe(true);
  });

  it("refuses to test a disabled subscription", async () => {
    const { id } = await subscribe({ target: "https://hooks.example.com/x" });
    await runSql(db, "UPDATE subscriptions SET status = 'disabled', disabled_at = ?, disabled_reason = '410 Gone' WHERE id = ?", new Date().toISOString(), id);
    const refused = await call("testSubscription", { method: "POST", params: { id } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toContain("410 Gone");
    expect(await count("notification_messages")).toBe(0);
  });

  it("gives the delivery log newest first, each attempt with its message's webhook id", async () => {
    const { id } = await subscribe({ target: "https://hooks.example.com/x" });
    const { webhookId } = (await (await call("testSubscription", { method: "POST", params: { id } })).json()) as { webhookId: string };
    const messageId = (await queryRow<{ id: number }>(db, "SELECT id FROM notification_messages WHERE webhook_id = ?", webhookId))?.id;
    const attempt = "INSERT INTO delivery_attempts (message_id, subscription_id, attempted_at, status_code, duration_ms, outcome, error) VALUES (?, ?, ?, ?, ?, ?, ?)";
    await runSql(db, attempt, messageId, id, "2026-03-01T10:00:00.000Z", 500, 12, "retry", "HTTP 500");
    await runSql(db, attempt, messageId, id, "2026-03-01T10:00:30.000Z", 200, 8, "delivered", null);
    const log = (await (await call("listDeliveries", { params: { id } })).json()) as { data: Array<Record<string, unknown>> };
    expect(log.data).toEqual([
      { attemptedAt: "2026-03-01T10:00:30.000Z", webhookId, kind: "test", changes: 0, statusCode: 200, durationMs: 8, outcome: "delivered", error: null },
      { attemptedAt: "2026-03-01T10:00:00.000Z", webhookId, kind: "test", changes: 0, statusCode: 500, durationMs: 12, outcome: "retry", error: "HTTP 500" },
    ]);
    expect((await call("listDeliveries", { params: { id: "sub_nope" } })).status).toBe(404);
  });
});

describe("the operator API for watchlists", () => {
  it("saves a watchlist, replaces its members on a second save, gets and lists it", async () => {
    const saved = await call("saveWatchlist", { method: "POST", body: { name: "core", vendors: ["acme"] } });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ name: "core", members: [{ vendor: "acme", component: null }], page: `${ORIGIN}/watch/core` });
    await call("saveWatchlist", { method: "POST", body: { name: "core", components: ["acme:API"] } });
    expect(await (await call("getWatchlist", { params: { name: "core" } })).json()).toMatchObject({ members: [{ vendor: "acme", vendorName: "Acme Cloud", component: "API" }] });
    const list = (await (await call("listWatchlists")).json()) as { data: Array<{ name: string }> };
    expect(list.data.map((w) => w.name)).toEqual(["core"]);
    expect((await call("getWatchlist", { params: { name: "other" } })).status).toBe(404);
  });

  it.each([
    ["an unknown vendor", { name: "core", vendors: ["nobody"] }, /no vendor "nobody"/],
    ["a name that is not URL-safe", { name: "Core Team", vendors: ["acme"] }, /invalid name/],
    ["no members", { name: "core" }, /at least one/],
  ])("refuses %s with a 400, writing nothing", async (_what, body, detail) => {
    const refused = await call("saveWatchlist", { method: "POST", body });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(detail);
    expect(await count("watchlists")).toBe(0);
  });

  it("refuses to remove a watchlist a subscription filters on (409), and removes it once that is gone", async () => {
    await call("saveWatchlist", { method: "POST", body: { name: "core", vendors: ["acme"] } });
    const { id } = await subscribe({ target: "https://hooks.example.com/x", watchlist: "core" });
    const refused = await call("removeWatchlist", { method: "DELETE", params: { name: "core" } });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { detail: string }).detail).toContain(id);
    await call("removeSubscription", { method: "DELETE", params: { id } });
    expect(await (await call("removeWatchlist", { method: "DELETE", params: { name: "core" } })).json()).toEqual({ name: "core", removed: true });
    expect((await call("removeWatchlist", { method: "DELETE", params: { name: "core" } })).status).toBe(404);
  });
});
