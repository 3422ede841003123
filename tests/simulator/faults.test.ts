import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPlatform } from "@/scrapers/platforms";
import { SnapshotError } from "@/scrapers/platforms/platform";
import { parseFaultShorthand } from "@/simulator/faults";
import { type Simulator, startSimulator } from "@/simulator/server";
import type { SimVendor } from "@/simulator/world";
import { fetchRaw, readUntil } from "@/tests/simulator/http-client";
import { waitFor } from "@/tests/support/observe";

const START = "2026-03-04T00:00:00.000Z";
const FAMILIES = ["statuspage", "gcp", "slack", "aws-legacy"];
let sim: Simulator;

beforeAll(async () => {
  sim = await startSimulator({
    vendors: FAMILIES.map((family) => ({ slug: `faulty-${family}`, family })),
    acceleration: 0,
    start: START,
    faults: { "faulty-gcp": { kind: "status", status: 500 } },
  });
});
afterAll(() => sim.stop());

function vendor(family: string): SimVendor {
  return sim.vendor(`faulty-${family}`);
}

/** The first endpoint Redline's plan polls for the vendor. */
function endpointOf(v: SimVendor): { url: string; platform: string } {
  const [endpoint] = v.live.plan(new URL(v.url)).endpoints;
  if (!endpoint) throw new Error(`no endpoint for ${v.slug}`);
  return endpoint;
}

async function parseError(v: SimVendor, body: Buffer): Promise<SnapshotError> {
  const { url, platform } = endpointOf(v);
  const parser = getPlatform(platform);
  const error = await parser?.parse(body, { vendor: v.slug, source: url, observedAt: START }).then(() => null, (e: unknown) => e);
  if (!(error instanceof SnapshotError)) throw new Error(`expected a SnapshotError, got ${String(error)}`);
  return error;
}

describe("faults", () => {
  it("set at start answer with the status until cleared at run time", async () => {
    const gcp = vendor("gcp");
    expect((await fetchRaw(endpointOf(gcp).url)).status).toBe(500);
    sim.setFault(gcp.slug, null);
    expect((await fetchRaw(endpointOf(gcp).url)).status).toBe(200);
  });

  it("429 and 503 carry Retry-After, 500 does not", async () => {
    const v = vendor("slack");
    sim.setFault(v.slug, { kind: "status", status: 429 });
    expect((await fetchRaw(endpointOf(v).url)).headers["retry-after"]).toBe("120");
    sim.setFault(v.slug, parseFaultShorthand("503:30"));
    const unavailable = await fetchRaw(endpointOf(v).url);
    expect([unavailable.status, unavailable.headers["retry-after"]]).toEqual([503, "30"]);
    sim.setFault(v.slug, parseFaultShorthand("500"));
    const failed = await fetchRaw(endpointOf(v).url);
    expect([failed.status, failed.headers["retry-after"]]).toEqual([500, undefined]);
    sim.setFault(v.slug, null);
  });

  it("hang accepts the request and never answers", async () => {
    const v = vendor("statuspage");
    const before = sim.requests(v.slug).length;
    sim.setFault(v.slug, { kind: "hang" });
    const abort = new AbortController();
    let answered = false;
    const hanging = fetch(endpointOf(v).url, { signal: abort.signal }).then(() => (answered = true), (e: unknown) => (e as Error).name);
    await waitFor("the simulator to receive the request", () => sim.requests(v.slug).length > before);
    expect(sim.requests(v.slug).at(-1)?.fault).toBe("hang");
    // A whole exchange with another vendor of the same process, after the hung request arrived:
    // the simulator had every chance to answer it, and did not.
    expect((await fetchRaw(endpointOf(vendor("slack")).url)).status).toBe(200);
    expect(answered).toBe(false);
    abort.abort();
    expect(await hanging).toBe("AbortError");
    sim.setFault(v.slug, null);
  });

  it("trickle sends the real body one byte at a time", async () => {
    const v = vendor("aws-legacy");
    sim.setFault(v.slug, { kind: "trickle", intervalMs: 5 });
    const { res, chunks } = await readUntil(endpointOf(v).url, (c) => c.length >= 4);
    expect(res.statusCode).toBe(200);
    expect(chunks.map((c) => c.length)).toEqual([1, 1, 1, 1]);
    expect(Buffer.concat(chunks).toString()).toBe('{"cu');
    sim.setFault(v.slug, null);
  });

  it("truncated, html-error and empty answer 200 with bodies Redline must count as failed captures", async () => {
    const v = vendor("statuspage");
    const whole = await fetchRaw(endpointOf(v).url);
    sim.setFault(v.slug, { kind: "truncated" });
    const truncated = await fetchRaw(endpointOf(v).url);
    expect([truncated.status, truncated.body.length]).toEqual([200, Math.floor(whole.body.length / 2)]);
    expect((await parseError(v, truncated.body)).kind).toBe("unparseable");
    sim.setFault(v.slug, { kind: "html-error" });
    const html = await fetchRaw(endpointOf(v).url);
    expect([html.status, html.headers["content-type"]]).toEqual([200, "text/html; charset=utf-8"]);
    expect((await parseError(v, html.body)).kind).toBe("unparseable");
    sim.setFault(v.slug, { kind: "empty" });
    const empty = await fetchRaw(endpointOf(v).url);
    expect([empty.status, empty.body.length]).toEqual([200, 0]);
    expect((await parseError(v, empty.body)).kind).toBe("empty");
    sim.setFault(v.slug, null);
  });

  it("schema-drift serves valid JSON that every JSON parser rejects as the wrong shape", async () => {
    for (const family of FAMILIES) {
      const v = vendor(family);
      sim.setFault(v.slug, { kind: "schema-drift" });
      const drifted = await fetchRaw(endpointOf(v).url);
      expect(() => JSON.parse(drifted.body.toString())).not.toThrow();
      expect((await parseError(v, drifted.body)).kind, family).toBe("schema");
      sim.setFault(v.slug, null);
    }
  });

  it("oversize streams a body far over any cap without a length, and stops when the client leaves", async () => {
    const v = vendor("gcp");
    sim.setFault(v.slug, { kind: "oversize" });
    const { res, received } = await readUntil(endpointOf(v).url, (_, n) => n > 1024 * 1024);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-length"]).toBeUndefined();
    expect(received).toBeGreaterThan(1024 * 1024);
    expect(received).toBeLessThan(64 * 1024 * 1024);
    sim.setFault(v.slug, null);
  });

  it("redirect-loop sends the client in circles", async () => {
    const v = vendor("slack");
    const { url } = endpointOf(v);
    sim.setFault(v.slug, { kind: "redirect-loop" });
    const first = await fetchRaw(url);
    const second = await fetchRaw(String(first.headers.location));
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(second.headers.location).toBe(url);
    await expect(fetch(url)).rejects.toThrow();
    sim.setFault(v.slug, null);
  });

  it("reset drops the connection without an answer", async () => {
    const v = vendor("aws-legacy");
    sim.setFault(v.slug, { kind: "reset" });
    const error = await fetchRaw(endpointOf(v).url).then(() => null, (e: unknown) => e as NodeJS.ErrnoException);
    expect(error?.code).toBe("ECONNRESET");
    sim.setFault(v.slug, null);
  });

  it("limited to some paths leave the vendor's other endpoints alone", async () => {
    const v = vendor("statuspage");
    sim.setFault(v.slug, { kind: "status", status: 404, paths: ["/api/v2/incidents.json"] });
    expect((await fetchRaw(`${v.baseUrl}/api/v2/incidents.json`)).status).toBe(404);
    expect((await fetchRaw(`${v.baseUrl}/api/v2/scheduled-maintenances.json`)).status).toBe(200);
    expect((await fetchRaw(`${v.baseUrl}/history.atom`)).status).toBe(200);
    sim.setFault(v.slug, null);
  });
});
