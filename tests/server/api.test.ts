import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RedlineDb } from "@/db/client";
import { getPollState } from "@/db/operations/poll-state";
import { ensureVendor, getVendorBySlug } from "@/db/settings/vendors";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { type Api, createApi } from "@/server/api/api";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshDatabase } from "@/tests/support/database";
import { makeIncident, makeUpdate } from "@/tests/support/incidents";
import { makeTestPlatform, snapshotBody } from "@/tests/support/test-platform";

const ORIGIN = "http://redline.test";
const TOKEN = "operator-token-for-tests-0123456789";
const platform = makeTestPlatform({ kind: "recent", limit: 100 });
let db: RedlineDb;
let api: Api;

beforeAll(async () => {
  db = await freshDatabase();
  api = createApi(() => db);
  await archiveAcmeLifecycle(db, platform);
  // Enough incidents and versions across two more vendors for several pages.
  for (const slug of ["bulk", "zeta"]) {
    const vendor = await ensureVendor(db, { slug, name: slug === "bulk" ? "Bulk Inc" : "Zeta", platform: platform.name });
    const incidents = Array.from({ length: 12 }, (_, i) =>
      makeIncident({ vendor: slug, id: `${slug}-${i}`, title: `Queue backlog ${i}`, impact: i % 3 === 0 ? "major" : "minor", startedAt: `2026-05-${String(i + 1).padStart(2, "0")}T10:00:00.000Z`, updates: [makeUpdate({ id: `u-${i}`, body: `Messages are delayed in region ${i}.` })] }),
    );
    await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt: "2026-05-20T00:00:00.000Z", body: snapshotBody(incidents) });
    await ingestSnapshot(db, { vendor, platform, source: "feed", observedAt: "2026-05-21T00:00:00.000Z", body: snapshotBody(incidents.map((i) => ({ ...i, status: "resolved", resolvedAt: "2026-05-20T12:00:00.000Z" }))) });
  }
});

afterEach(() => vi.unstubAllEnvs());

type Operation = keyof Api;

async function call(operation: Operation, options: { path?: string; params?: Record<string, string>; method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const request = new Request(`${ORIGIN}/api/v1${options.path ?? "/x"}`, {
    method: options.method ?? "GET",
    headers: { ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const handler = api[operation] as (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
  return handler(request, { params: Promise.resolve(options.params ?? {}) });
}

/** Follows `next` from the first page to the end, returning every item's key. */
async function walk(operation: Operation, path: string, key: (item: Record<string, unknown>) => string): Promise<{ keys: string[]; pages: number }> {
  const keys: string[] = [];
  let next: string | null = `${ORIGIN}/api/v1${path}`;
  let pages = 0;
  while (next && pages < 100) {
    const response = await call(operation, { path: next.slice(`${ORIGIN}/api/v1`.length) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown>[]; next: string | null };
    keys.push(...body.data.map(key));
    next = body.next;
    pages += 1;
  }
  return { keys, pages };
}

describe("API reads", () => {
  it("lists vendors and answers one, with links to its incidents, changes and feeds", async () => {
    const list = (await (await call("listVendors", { path: "/vendors" })).json()) as { data: { slug: string }[]; next: string | null };
    expect(list.data.map((v) => v.slug)).toEqual(["acme", "bulk", "zeta"]);
    const one = (await (await call("getVendor", { params: { slug: "acme" } })).json()) as { name: string; links: Record<string, unknown> };
    expect(one.name).toBe("Acme Cloud");
    expect(one.links).toMatchObject({ self: `${ORIGIN}/api/v1/vendors/acme`, html: `${ORIGIN}/vendors/acme`, feeds: { atom: `${ORIGIN}/vendors/acme/feed.atom` } });
  });

  it("answers an incident with its versions, one version with its changes, and the diff of any two", async () => {
    const incident = (await (await call("getIncident", { params: { slug: "acme", key: "k3x9" } })).json()) as { versions: { seq: number }[]; current: { title: string } };
    expect(incident.versions.length).toBeGreaterThan(3);
    const version = (await (await call("getVersion", { params: { slug: "acme", key: "k3x9", seq: "3" } })).json()) as { seq: number; changes: { field: string }[]; kinds: string[] };
    expect(version.seq).toBe(3);
    expect(version.changes.length).toBeGreaterThan(0);
    const diff = (await (await call("diffVersions", { path: "/x?from=1&to=" + incident.versions.length, params: { slug: "acme", key: "k3x9" } })).json()) as { changes: { field: string }[] };
    expect(diff.changes.map((c) => c.field)).toEqual(expect.arrayContaining(["status", "resolvedAt", "update", "postmortem"]));
  });

  it("filters incidents by vendor, impact, status, kind, component, time and words", async () => {
    const ids = async (query: string) => ((await (await call("listIncidents", { path: `/incidents?${query}` })).json()) as { data: { id: string }[] }).data.map((i) => i.id);
    expect((await ids("vendor=bulk&impact=major")).sort()).toEqual(["bulk-0", "bulk-3", "bulk-6", "bulk-9"]);
    expect(await ids("vendor=acme&component=webhooks")).toContain("k3x9");
    expect(await ids("kind=postmortem-published")).toEqual(["k3x9"]);
    expect(await ids("vendor=zeta&since=2026-05-11&until=2026-05-12T23:59:59Z")).toEqual(["zeta-11", "zeta-10"]);
    expect(await ids("q=region%205")).toEqual(expect.arrayContaining(["bulk-5", "zeta-5"]));
    expect(await ids("vendor=zeta&status=investigating")).toEqual([]);
  });

  it("pages through incidents, changes, vendors and search results without gaps or repeats", async () => {
    const incidents = await walk("listIncidents", "/incidents?limit=5", (i) => `${String(i.vendor)}/${String(i.id)}`);
    const everyIncident = await walk("listIncidents", "/incidents?limit=200", (i) => `${String(i.vendor)}/${String(i.id)}`);
    expect(incidents.pages).toBeGreaterThan(4);
    expect(incidents.keys).toEqual(everyIncident.keys);
    expect(new Set(incidents.keys).size).toBe(incidents.keys.length);

    const changes = await walk("listChanges", "/changes?limit=7", (c) => `${JSON.stringify(c.incident)}#${String(c.seq)}`);
    const everyChange = await walk("listChanges", "/changes?limit=200", (c) => `${JSON.stringify(c.incident)}#${String(c.seq)}`);
    expect(changes.pages).toBeGreaterThan(3);
    expect(changes.keys).toEqual(everyChange.keys);

    const twoVendors = await walk("listChanges", "/changes?vendor=bulk&vendor=zeta&limit=5", (c) => `${JSON.stringify(c.incident)}#${String(c.seq)}`);
    expect(twoVendors.keys).toHaveLength(48);
    expect(new Set(twoVendors.keys).size).toBe(48);

    const vendors = await walk("listVendors", "/vendors?limit=1", (v) => String(v.slug));
    expect(vendors.keys).toEqual(["acme", "bulk", "zeta"]);
    const search = await walk("search", "/search?q=delayed&limit=4", (h) => JSON.stringify(h.incident));
    const everyHit = await walk("search", "/search?q=delayed&limit=200", (h) => JSON.stringify(h.incident));
    expect(search.pages).toBeGreaterThan(3);
    expect(search.keys).toEqual(everyHit.keys);
  });

  it("serves the exports exactly as the web exports do", async () => {
    const md = await call("exportIncidentMarkdown", { params: { slug: "acme", key: "k3x9" } });
    expect(md.headers.get("content-type")).toMatch(/^text\/markdown/);
    expect(await md.text()).toMatch(/^# /);
    const json = (await (await call("exportVersionJson", { params: { slug: "acme", key: "k3x9", seq: "2" } })).json()) as { version: { seq: number } };
    expect(json.version.seq).toBe(2);
  });

  it("answers a repeated GET with 304 when the ETag is current, and lets any origin read", async () => {
    for (const [operation, options] of [
      ["listVendors", {}], ["getVendor", { params: { slug: "acme" } }], ["listIncidents", {}], ["listChanges", {}],
      ["getIncident", { params: { slug: "acme", key: "k3x9" } }], ["search", { path: "/search?q=webhook" }], ["getOpenApi", {}],
      ["exportIncidentMarkdown", { params: { slug: "acme", key: "k3x9" } }],
    ] as const) {
      const first = await call(operation, options);
      expect(first.status, operation).toBe(200);
      expect(first.headers.get("access-control-allow-origin")).toBe("*");
      const etag = first.headers.get("etag");
      expect(etag, operation).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await call(operation, { ...options, headers: { "if-none-match": etag ?? "" } });
      expect(again.status, operation).toBe(304);
    }
  });
});

describe("API errors", () => {
  it("answers an invalid parameter with a 400 problem naming it and the reason", async () => {
    const cases: [Operation, string, string][] = [
      ["listIncidents", "/incidents?impact=catastrophic", "impact"],
      ["listIncidents", "/incidents?limit=5000", "limit"],
      ["listChanges", "/changes?kind=nope", "kind"],
      ["listChanges", "/changes?since=yesterday", "since"],
      ["listChanges", "/changes?cursor=bm90LWEtY3Vyc29y", "cursor"],
      ["listVendors", "/vendors?colour=red", "colour"],
      ["search", "/search", "q"],
      ["search", `/search?q=${encodeURIComponent("c* a* i* o* u* s* t* r* n* l* e* d*")}`, "q"],
      ["search", "/search?q=database%20c*", "q"],
    ];
    for (const [operation, path, parameter] of cases) {
      const response = await call(operation, { path });
      expect(response.status, path).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      const body = (await response.json()) as { status: number; title: string; detail: string; parameter: string };
      expect(body, path).toMatchObject({ status: 400, title: "Bad request", parameter });
      expect(body.detail.length).toBeGreaterThan(parameter.length + 2);
    }
  });

  it("refuses a search past its limits, saying which limit, before any database reads it", async () => {
    const response = await call("search", { path: `/search?q=${encodeURIComponent("c* a* i* o* u* s* t* r* n* l* e* d*")}` });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ parameter: "q", detail: "q: at most 8 words (this has 12): leave out the least telling" });
    const prefixes = await call("search", { path: "/search?q=deg*%20lat*%20err*" });
    expect(await prefixes.json()).toMatchObject({ status: 400, detail: "q: at most 2 words ending in * (this has 3): write the others out in full" });
  });

  it("answers unknown vendors, incidents and versions with a 404 problem", async () => {
    for (const [operation, params] of [
      ["getVendor", { slug: "nope" }], ["getIncident", { slug: "acme", key: "nope" }], ["getVersion", { slug: "acme", key: "k3x9", seq: "999" }],
      ["exportIncidentJson", { slug: "nope", key: "k3x9" }],
    ] as const) {
      const response = await call(operation, { params });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404, title: "Not found" });
    }
  });
});

describe("API addresses no route has", () => {
  it.each([
    ["GET", "/api/v1/nope"],
    ["GET", "/api/v1/vendors/acme/nope"],
    ["POST", "/api/v1/incidents/nope"],
    ["DELETE", "/api/v1/changes/nope"],
  ])("answers %s %s with a 404 problem pointing to the route list, not the site's HTML page", async (method, path) => {
    const route = (await import("@/app/api/v1/[...path]/route")) as unknown as Record<string, (request: Request) => Response>;
    const handler = route[method];
    expect(handler, method).toBeTypeOf("function");
    const response = handler?.(new Request(`${ORIGIN}${path}`, { method })) ?? new Response(null, { status: 599 });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const body = (await response.json()) as { status: number; title: string; detail: string };
    expect(body).toMatchObject({ status: 404, title: "Not found" });
    expect(body.detail).toContain(path);
    expect(body.detail).toContain("/api/v1/openapi.json");
  });
});

describe("API writes", () => {
  const vendor = { slug: "newco", name: "NewCo", platform: "statuspage", url: "https://status.newco.example" };

  it("answer 401 without the operator token, with a wrong one, and when none is configured", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", "");
    expect((await call("addVendor", { method: "POST", body: vendor, headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(401);
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    expect((await call("addVendor", { method: "POST", body: vendor })).status).toBe(401);
    expect((await call("removeVendor", { method: "DELETE", params: { slug: "acme" }, headers: { authorization: "Bearer wrong-token-wrong-token" } })).status).toBe(401);
    expect((await call("getHookTelemetry", {})).status).toBe(401);
    const poll = await call("pollVendor", { method: "POST", params: { slug: "acme" } });
    expect(poll.status).toBe(401);
    expect(poll.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await getVendorBySlug(db, "newco")).toBeUndefined();
    expect((await getVendorBySlug(db, "acme"))?.enabled).toBe(true);
  });

  it("refuse a vendor slug over 64 characters with a 400 naming the limit, adding nothing, and take one of 64", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const long = "a".repeat(5_000);
    const refused = await call("addVendor", { method: "POST", body: { ...vendor, slug: long }, headers: auth });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const problem = (await refused.json()) as { parameter?: string; detail?: string };
    expect(problem.parameter).toBe("slug");
    expect(problem.detail).toMatch(/at most 64/);
    expect(problem.detail?.length).toBeLessThan(200);
    expect(await getVendorBySlug(db, long)).toBeUndefined();
    expect((await call("addVendor", { method: "POST", body: { ...vendor, slug: "a".repeat(65) }, headers: auth })).status).toBe(400);
    const longest = `${"b".repeat(63)}x`;
    expect((await call("addVendor", { method: "POST", body: { ...vendor, slug: longest }, headers: auth })).status).toBe(201);
    expect((await call("removeVendor", { method: "DELETE", path: `/vendors/${longest}?purge=true`, params: { slug: longest }, headers: auth })).status).toBe(200);
  });

  it("with the token, add a vendor, poll it now, refuse it twice, and remove it", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const added = await call("addVendor", { method: "POST", body: vendor, headers: auth });
    expect(added.status).toBe(201);
    expect(added.headers.get("location")).toBe(`${ORIGIN}/api/v1/vendors/newco`);
    expect(await added.json()).toMatchObject({ slug: "newco", polled: true, url: "https://status.newco.example/" });
    expect((await call("addVendor", { method: "POST", body: vendor, headers: auth })).status).toBe(409);
    const bad = await call("addVendor", { method: "POST", body: { ...vendor, slug: "other", platform: "carrier-pigeon" }, headers: auth });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ parameter: "platform" });
    const notJson = await call("addVendor", { method: "POST", headers: { ...auth, "content-type": "text/plain" } });
    expect(notJson.status).toBe(415);

    const polled = await call("pollVendor", { method: "POST", params: { slug: "newco" }, headers: auth });
    expect(polled.status).toBe(202);
    const due = (await getPollState(db, (await getVendorBySlug(db, "newco"))?.id ?? 0))?.nextPollAt ?? "";
    expect(Date.parse(due)).toBeLessThanOrEqual(Date.now());

    const removed = await call("removeVendor", { method: "DELETE", params: { slug: "newco" }, headers: auth });
    expect(await removed.json()).toEqual({ slug: "newco", purged: false, incidents: 0 });
    expect((await getVendorBySlug(db, "newco"))?.enabled).toBe(false);
    expect((await call("pollVendor", { method: "POST", params: { slug: "newco" }, headers: auth })).status).toBe(409);
  });

  it("refuse an imported or removed slug with 409 and a problem document saying what exists, leaving it unpolled", async () => {
    vi.stubEnv("REDLINE_OPERATOR_TOKEN", TOKEN);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const imported = await call("addVendor", { method: "POST", body: { ...vendor, slug: "acme" }, headers: auth });
    expect(imported.status).toBe(409);
    expect(imported.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await imported.json()).toMatchObject({ status: 409, parameter: "slug", detail: expect.stringMatching(/^vendor acme already exists: imported as test-feed, not polled; .*--add-source/) });
    expect(await getVendorBySlug(db, "acme")).toMatchObject({ url: null, enabled: true, origin: "import" });

    expect((await call("addVendor", { method: "POST", body: { ...vendor, slug: "gone" }, headers: auth })).status).toBe(201);
    await call("removeVendor", { method: "DELETE", params: { slug: "gone" }, headers: auth });
    const removed = await call("addVendor", { method: "POST", body: { ...vendor, slug: "gone" }, headers: auth });
    expect(removed.status).toBe(409);
    expect(await removed.json()).toMatchObject({ detail: expect.stringMatching(/^vendor gone already exists: removed, its history kept/) });
    expect((await getVendorBySlug(db, "gone"))?.enabled).toBe(false);
  });
});
