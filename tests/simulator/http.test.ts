import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPlatform } from "@/scrapers/platforms";
import { getWireFormat } from "@/simulator/formats";
import { lifecycleEvents } from "@/simulator/scenario";
import { CYCLE_MS } from "@/simulator/scenario-script";
import { type Simulator, startSimulator } from "@/simulator/server";
import { defaultFamilies, endpointsAt, type SimVendor } from "@/simulator/world";
import { fetchRaw } from "@/tests/simulator/http-client";

const START = "2026-03-04T00:00:00.000Z";
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({ count: defaultFamilies().length, acceleration: 0, start: START, seed: 5 });
});
afterAll(() => sim.stop());

function vendorOf(family: string): SimVendor {
  const vendor = sim.vendors.find((v) => v.family === family);
  if (!vendor) throw new Error(`no ${family} vendor`);
  return vendor;
}

/** The first scripted event of one kind after the simulator's current time. */
function nextEvent(vendor: SimVendor, kind: string): number {
  const now = Date.parse(sim.now());
  const event = lifecycleEvents(vendor.scenario, now + 1, now + CYCLE_MS).find((e) => e.kind === kind);
  if (!event) throw new Error(`no ${kind} within a cycle`);
  return Date.parse(event.at);
}

describe("simulated vendors over HTTP", () => {
  it("serve exactly their live plan's endpoints and follow-up pages, each readable by its parser, and 404 elsewhere", async () => {
    sim.setClock(START);
    for (const vendor of sim.vendors) {
      const endpoints = endpointsAt(vendor, Date.parse(START));
      const plan = vendor.live.plan(new URL(vendor.url));
      expect(endpoints.map((e) => e.url)).toEqual(expect.arrayContaining(plan.endpoints.map((e) => e.url)));
      for (const endpoint of endpoints) {
        const res = await fetchRaw(endpoint.url);
        expect(res.status, endpoint.url).toBe(200);
        expect(res.headers["content-type"]).toBe(getWireFormat(endpoint.platform)?.contentType);
        const parser = getPlatform(endpoint.platform);
        if (parser) await expect(parser.parse(res.body, { vendor: vendor.slug, source: endpoint.url, observedAt: START })).resolves.toMatchObject({ unread: [], warnings: [] });
      }
      expect((await fetchRaw(`${vendor.baseUrl}/api/v2/nothing.json`)).status).toBe(404);
    }
    const statuspage = vendorOf("statuspage");
    const pages = endpointsAt(statuspage, Date.parse(START)).filter((e) => e.platform === "statuspage-incident-page");
    expect(pages.length).toBeGreaterThan(0);
    const notPostmortem = sim.stateOf(statuspage.slug).find((i) => i.status !== "postmortem");
    expect((await fetchRaw(`${statuspage.baseUrl}/incidents/${notPostmortem?.id ?? "x"}`)).status).toBe(404);
  });

  it("answer a repeated request with 304 by ETag or by date, and with 200 and new validators after a change", async () => {
    const vendor = vendorOf("statuspage");
    sim.setClock(START);
    const url = `${vendor.baseUrl}/api/v2/incidents.json`;
    const first = await fetchRaw(url);
    const etag = String(first.headers.etag);
    const lastModified = String(first.headers["last-modified"]);
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect((await fetchRaw(url, { "If-None-Match": etag })).status).toBe(304);
    expect((await fetchRaw(url, { "If-Modified-Since": lastModified })).status).toBe(304);
    expect((await fetchRaw(url, { "If-None-Match": '"other"', "If-Modified-Since": lastModified })).status).toBe(200);

    const created = nextEvent(vendor, "incident-created");
    sim.setClock(new Date(created).toISOString());
    const changed = await fetchRaw(url, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.headers["last-modified"]).toBe(new Date(created).toUTCString());
    expect((await fetchRaw(url, { "If-Modified-Since": lastModified })).status).toBe(200);
  });

  it("date Last-Modified by the last change of that endpoint, not of the vendor", async () => {
    const vendor = vendorOf("statuspage-summary");
    sim.setClock(START);
    const completed = nextEvent(vendor, "maintenance-completed");
    sim.setClock(new Date(completed).toISOString());
    const published = nextEvent(vendor, "postmortem-published");
    sim.setClock(new Date(published + 1000).toISOString());
    const res = await fetchRaw(vendor.url);
    expect(res.headers["last-modified"]).toBe(new Date(completed).toUTCString());
  });

  it("gzip a body only for clients that accept it", async () => {
    const vendor = vendorOf("gcp");
    const plain = await fetchRaw(vendor.url.replace(/\/$/, "/incidents.json"));
    const zipped = await fetchRaw(vendor.url.replace(/\/$/, "/incidents.json"), { "Accept-Encoding": "br;q=1, gzip;q=0.5" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    const refused = await fetchRaw(vendor.url.replace(/\/$/, "/incidents.json"), { "Accept-Encoding": "gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
  });

  it("record every request with its arrival time, per vendor", async () => {
    const vendor = vendorOf("slack");
    const before = sim.requests(vendor.slug).length;
    for (let i = 0; i < 3; i += 1) await fetchRaw(`${vendor.baseUrl}/api/v2.0.0/history`);
    const log = sim.requests(vendor.slug).slice(before);
    expect(log.map((r) => r.path)).toEqual(Array(3).fill("/api/v2.0.0/history"));
    expect(log.map((r) => r.receivedAtMs)).toEqual([...log.map((r) => r.receivedAtMs)].sort((a, b) => a - b));
    expect(log.every((r) => r.simulatedAt === sim.now() && r.fault === null)).toBe(true);
    expect(sim.requests(vendorOf("gcp").slug).some((r) => r.path === "/api/v2.0.0/history")).toBe(false);
  });
});

describe("the control endpoint", () => {
  it("lists vendors, sets and clears faults, and sets the clock", async () => {
    const control = sim.controlUrl ?? "";
    const listed = (await (await fetch(`${control}/vendors`)).json()) as { vendors: Array<{ slug: string; url: string }> };
    expect(listed.vendors.map((v) => v.slug)).toEqual(sim.vendors.map((v) => v.slug));
    const slug = vendorOf("gcp").slug;
    const post = (path: string, body: unknown) => fetch(`${control}${path}`, { method: "POST", body: JSON.stringify(body) });
    expect((await post("/faults", { slug, fault: { kind: "status", status: 503 } })).status).toBe(200);
    expect(sim.faults()[slug]).toEqual({ kind: "status", status: 503 });
    expect((await fetchRaw(vendorOf("gcp").url.replace(/\/$/, "/incidents.json"))).status).toBe(503);
    expect((await post("/faults", { slug, fault: null })).status).toBe(200);
    expect(sim.faults()[slug]).toBeUndefined();
    expect((await post("/faults", { slug, fault: { kind: "melt" } })).status).toBe(400);
    expect((await post("/faults", { slug: "nobody", fault: null })).status).toBe(404);
    expect((await post("/clock", { at: "2026-05-01T00:00:00Z" })).status).toBe(200);
    expect(sim.now()).toBe("2026-05-01T00:00:00.000Z");
    const state = (await (await fetch(`${control}/vendors/${slug}/state`)).json()) as { incidents: unknown[] };
    expect(state.incidents).toEqual(JSON.parse(JSON.stringify(sim.stateOf(slug))));
  });
});
