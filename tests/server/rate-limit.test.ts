import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { readEnv } from "@/lib/env";
import { trustProxies } from "@/server/http/client-address";
import { addressGroup, clientKey, createClientRateLimit } from "@/server/rate-limit";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A limited server trusting `proxies`; `/key` answers with the key a request counts against. */
async function serve(proxies: string[]): Promise<number> {
  let clock = 0;
  const trust = trustProxies(proxies);
  const limited = createClientRateLimit({ ratePerSecond: 1, burst: 3, trust }, () => clock);
  server = http.createServer((req, res) => {
    if (req.url === "/tick") clock += 10_000;
    if (req.url === "/key") return void res.writeHead(200, { "content-type": "text/plain" }).end(clientKey(req, trust));
    if (!limited(req, res)) res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as AddressInfo).port;
}

function get(port: number, path: string, options: { from?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, localAddress: options.from, headers: options.headers }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("per-client rate limit", () => {
  it("counts a limited route however its path is spelled: dot segments, escapes, repeated slashes", async () => {
    const port = await serve([]);
    const spellings = ["/api/./v1/vendors/github", "/api/%2e/v1/vendors/github", "//api//v1/vendors/github", "/%61pi/v1/vendors/github", "/vendors/acme/./feed.atom"];
    const answers = [];
    for (const path of spellings) answers.push(await get(port, path, { from: "127.0.0.1" }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.every((a) => typeof a.headers.ratelimit === "string")).toBe(true);
  });

  it("refuses a client over its budget with 429, Retry-After and RateLimit headers, and not the others", async () => {
    const port = await serve([]);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await get(port, "/api/v1/changes", { from: "127.0.0.1" })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await get(port, "/vendors/acme/feed.atom", { from: "127.0.0.1" });
    expect(refused.status).toBe(429);
    expect((await get(port, "/vendors/acme/maintenance.ics", { from: "127.0.0.1" })).status).toBe(429);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429 });
    expect(refused.headers["ratelimit-policy"]).toBe('"per-client";q=3;w=3');
    expect(refused.headers.ratelimit).toMatch(/^"per-client";r=0;t=\d+$/);
    // Another address is another client; a page without a query is not limited at all.
    expect((await get(port, "/api/v1/changes", { from: "127.0.0.2" })).status).toBe(200);
    expect((await get(port, "/vendors/acme", { from: "127.0.0.1" })).status).toBe(200);
    // Time refills the bucket.
    await get(port, "/tick", { from: "127.0.0.3" });
    expect((await get(port, "/api/v1/changes", { from: "127.0.0.1" })).status).toBe(200);
  });

  it("counts the search page against the same budget and refuses it with a 429 page, not a problem document", async () => {
    const port = await serve([]);
    const statuses: number[] = [];
    for (const path of ["/search?q=latency", "/search?q=errors", "/./search?q=dns", "/search?q=c%2A%20a%2A"]) statuses.push((await get(port, path, { from: "127.0.0.1" })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await get(port, "/search?q=c%2A%20a%2A", { from: "127.0.0.1" });
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toMatch(/^text\/html/);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(refused.headers["content-security-policy"]).toContain("nonce-");
    expect(refused.body).toContain("too many searches");
    expect(refused.body).toContain('href="/search?q=c%2A%20a%2A"');
    // The API is in the same budget; the other pages are not limited.
    expect((await get(port, "/api/v1/changes", { from: "127.0.0.1" })).status).toBe(429);
    expect((await get(port, "/searching", { from: "127.0.0.1" })).status).toBe(200);
    expect((await get(port, "/vendors/acme/search", { from: "127.0.0.1" })).status).toBe(200);
  });

  it("counts filtered lists, exports and compare pages against the same budget as the API", async () => {
    const port = await serve([]);
    const paths = ["/vendors/acme?since=2026-01-01", "/vendors/acme/incidents/k1/export.md", "/vendors/acme/incidents/k1/compare?from=1&to=2"];
    const counted = [];
    for (const path of paths) counted.push(await get(port, path, { from: "127.0.0.1" }));
    expect(counted.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(counted.map((a) => a.headers.ratelimit)).toEqual(['"per-client";r=2;t=1', '"per-client";r=1;t=2', '"per-client";r=0;t=3']);
    const refused = [];
    for (const path of ["/?kind=update-edited", "/vendors/acme/incidents/k1/versions/2/export.json", "/compare?vendors=acme,hostile", "/vendors/acme/incidents/k1/compare", "/api/v1/changes"]) {
      refused.push(await get(port, path, { from: "127.0.0.1" }));
    }
    expect(refused.map((a) => a.status)).toEqual([429, 429, 429, 429, 429]);
    expect(refused.every((a) => /^"per-client";r=0;t=\d+$/.test(String(a.headers.ratelimit)) && a.headers["ratelimit-policy"] === '"per-client";q=3;w=3')).toBe(true);
    expect(refused.map((a) => String(a.headers["content-type"]).split(";")[0])).toEqual(["text/html", "application/problem+json", "text/html", "text/html", "application/problem+json"]);
    // Meanwhile the same client still gets every plain page, and static files never count.
    for (const path of ["/", "/vendors/acme", "/vendors/acme/incidents/k1", "/_next/static/chunks/app.js?dpl=1", "/icon.svg?icon.0b3bf435.svg"]) {
      const answer = await get(port, path, { from: "127.0.0.1" });
      expect(answer.status, path).toBe(200);
      expect(answer.headers.ratelimit, path).toBeUndefined();
    }
  });

  it("refuses a page with the site's 429 page naming what was asked for, and a link back to the same page", async () => {
    const port = await serve([]);
    for (let i = 0; i < 3; i += 1) await get(port, "/api/v1/changes", { from: "127.0.0.1" });
    const list = await get(port, "/vendors/acme/changes?kind=update-edited&_rsc=1x2y", { from: "127.0.0.1", headers: { rsc: "1" } });
    expect(list.status).toBe(429);
    expect(list.headers["retry-after"]).toMatch(/^\d+$/);
    expect(list.headers["content-security-policy"]).toContain("nonce-");
    expect(list.body).toContain("asked for too many pages in a short time");
    expect(list.body).toContain('href="/vendors/acme/changes?kind=update-edited"');
    const comparison = await get(port, "/compare?vendors=acme,hostile", { from: "127.0.0.1" });
    expect(comparison.body).toContain("asked for too many comparisons in a short time");
    expect(comparison.body).toContain('href="/compare?vendors=acme,hostile"');
  });

  it("counts a client-router request as the page it opens: with a filter it counts, a plain page's never does", async () => {
    const port = await serve([]);
    const router = { rsc: "1", "next-router-state-tree": "%5B%22%22%5D" };
    for (let i = 0; i < 5; i += 1) {
      const plain = await get(port, `/vendors/acme/changes?_rsc=${i}abc`, { from: "127.0.0.1", headers: router });
      expect(plain.status).toBe(200);
      expect(plain.headers.ratelimit).toBeUndefined();
    }
    const filtered = [];
    for (let i = 0; i < 4; i += 1) filtered.push((await get(port, `/vendors/acme/changes?kind=update-edited&_rsc=${i}abc`, { from: "127.0.0.1", headers: router })).status);
    expect(filtered).toEqual([200, 200, 200, 429]);
  });

  it("reads a bare ? as the plain page, and counts every other spelling of a query, an empty one or an escaped _rsc too", async () => {
    const port = await serve([]);
    for (const path of ["/vendors/acme?", "/vendors/acme/?", "/vendors/acme?_rsc=", "/vendors/acme?_rsc=abc"]) {
      const answer = await get(port, path, { from: "127.0.0.1" });
      expect(answer.headers.ratelimit, path).toBeUndefined();
    }
    const statuses = [];
    for (const path of ["/vendors/acme?&", "/vendors/acme?=", "/vendors/acme?%5Frsc=abc", "/vendors/acme?since"]) statuses.push((await get(port, path, { from: "127.0.0.1" })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it("ignores X-Forwarded-For from a peer that is not a trusted proxy, so a flood cannot dodge by forging it", async () => {
    for (const proxies of [[], ["127.0.0.1"]]) {
      const port = await serve(proxies);
      const forged = [];
      for (let i = 0; i < 5; i += 1) forged.push((await get(port, "/api/v1/search?q=x", { from: "127.0.0.2", headers: { "x-forwarded-for": `10.0.0.${i}` } })).status);
      expect(forged).toEqual([200, 200, 200, 429, 429]);
      expect((await get(port, "/key", { from: "127.0.0.2", headers: { "x-forwarded-for": "10.0.0.9" } })).body).toBe("127.0.0.2");
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    }
  });

  it("counts a trusted proxy's requests against the client its X-Forwarded-For names", async () => {
    const port = await serve(["127.0.0.1"]);
    const clients = [];
    for (let i = 0; i < 5; i += 1) clients.push((await get(port, "/api/v1/search?q=x", { from: "127.0.0.1", headers: { "x-forwarded-for": `10.0.0.${i}` } })).status);
    expect(clients).toEqual([200, 200, 200, 200, 200]);
    expect((await get(port, "/key", { from: "127.0.0.1", headers: { "x-forwarded-for": "203.0.113.9" } })).body).toBe("203.0.113.9");
    // Without the header, the proxy itself is the client.
    expect((await get(port, "/key", { from: "127.0.0.1" })).body).toBe("127.0.0.1");
  });

  it("reads a chain of proxies from the right and takes the first address that is not a trusted proxy", async () => {
    const port = await serve(["127.0.0.1", "10.0.0.0/8"]);
    const key = async (forwardedFor: string) => (await get(port, "/key", { from: "127.0.0.1", headers: { "x-forwarded-for": forwardedFor } })).body;
    // The client forged the first two entries; the edge proxy 10.1.2.3 appended the address it saw.
    expect(await key("192.0.2.66, 198.51.100.7, 10.1.2.3")).toBe("198.51.100.7");
    expect(await key("192.0.2.66,198.51.100.7 , 10.9.9.9,10.1.2.3")).toBe("198.51.100.7");
    // Every hop trusted: the furthest one is all there is to go on.
    expect(await key("10.7.7.7, 10.1.2.3")).toBe("10.7.7.7");
  });

  it("puts IPv6 addresses of one /64 in one bucket, compressed or written out, and another /64 in another", async () => {
    const port = await serve(["127.0.0.1"]);
    const from = (address: string) => get(port, "/api/v1/changes", { from: "127.0.0.1", headers: { "x-forwarded-for": address } });
    const statuses = [];
    for (const address of ["2001:db8::1", "2001:db8:0:0:1::2", "2001:0db8:0000:0000:ffff:0000:0000:0003", "2001:DB8::4"]) statuses.push((await from(address)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await from("2001:db8:0:1::1")).status).toBe(200);
    expect((await get(port, "/key", { from: "127.0.0.1", headers: { "x-forwarded-for": "2001:db8:0:0:1::2" } })).body).toBe("2001:db8::/64");
  });

  it("counts an IPv4-mapped IPv6 address as its IPv4 address, and drops zone ids", async () => {
    const port = await serve(["127.0.0.1"]);
    const statuses = [];
    for (const address of ["192.0.2.1", "::ffff:192.0.2.1", "::ffff:c000:201", "0:0:0:0:0:ffff:192.0.2.1"]) {
      statuses.push((await get(port, "/api/v1/changes", { from: "127.0.0.1", headers: { "x-forwarded-for": address } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(addressGroup("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(addressGroup("fe80::1%eth0")).toBe(addressGroup("fe80::2"));
    expect(addressGroup("fe80::1%eth0")).toBe("fe80::/64");
    expect(addressGroup("fe80::1%br-lan.10")).toBe("fe80::/64");
  });
});

/** The environment with only `vars` set. */
const envWith = (vars: Record<string, string>) => readEnv({ NODE_ENV: "test", ...vars });

describe("the trusted proxies setting", () => {
  it("takes addresses, CIDR ranges and proxy-addr's names, separated by commas", () => {
    expect(envWith({ REDLINE_TRUSTED_PROXIES: "loopback, 10.0.0.0/8,fd00::/8 ,192.0.2.7" }).REDLINE_TRUSTED_PROXIES).toEqual(["loopback", "10.0.0.0/8", "fd00::/8", "192.0.2.7"]);
    expect(envWith({}).REDLINE_TRUSTED_PROXIES).toEqual([]);
  });

  it("refuses an entry that is not an address, a range or a name, naming the variable and the entry", () => {
    for (const entry of ["10.0.0.0/33", "proxy.example.org", "10", "fd00::/129", "Loopback"]) {
      expect(() => envWith({ REDLINE_TRUSTED_PROXIES: `127.0.0.1, ${entry}` })).toThrow(`REDLINE_TRUSTED_PROXIES: ${JSON.stringify(entry)} is not`);
    }
  });

  it("refuses the retired REDLINE_TRUST_PROXY, naming what replaced it", () => {
    for (const value of ["1", "0", "true"]) expect(() => envWith({ REDLINE_TRUST_PROXY: value })).toThrow(/REDLINE_TRUST_PROXY: replaced by REDLINE_TRUSTED_PROXIES/);
  });
});
