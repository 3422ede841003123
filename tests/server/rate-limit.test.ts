import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClientRateLimit } from "@/server/rate-limit";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(trustProxy: boolean): Promise<number> {
  let clock = 0;
  const limited = createClientRateLimit({ ratePerSecond: 1, burst: 3, trustProxy }, () => clock);
  server = http.createServer((req, res) => {
    if (req.url === "/tick") clock += 10_000;
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
  it("refuses a client over its budget with 429, Retry-After and RateLimit headers, and not the others", async () => {
    const port = await serve(false);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await get(port, "/api/v1/changes", { from: "127.0.0.1" })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const refused = await get(port, "/vendors/acme/feed.atom", { from: "127.0.0.1" });
    expect(refused.status).toBe(429);
    expect(refused.headers["retry-after"]).toMatch(/^\d+$/);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(refused.body)).toMatchObject({ status: 429 });
    expect(refused.headers["ratelimit-policy"]).toBe('"per-client";q=3;w=3');
    expect(refused.headers.ratelimit).toMatch(/^"per-client";r=0;t=\d+$/);
    // Another address is another client; pages are not limited at all.
    expect((await get(port, "/api/v1/changes", { from: "127.0.0.2" })).status).toBe(200);
    expect((await get(port, "/vendors/acme", { from: "127.0.0.1" })).status).toBe(200);
    // Time refills the bucket.
    await get(port, "/tick", { from: "127.0.0.3" });
    expect((await get(port, "/api/v1/changes", { from: "127.0.0.1" })).status).toBe(200);
  });

  it("ignores X-Forwarded-For unless told it is behind a proxy, so a flood cannot dodge by forging it", async () => {
    const direct = await serve(false);
    const forged = [];
    for (let i = 0; i < 5; i += 1) forged.push((await get(direct, "/api/v1/search?q=x", { headers: { "x-forwarded-for": `10.0.0.${i}` } })).status);
    expect(forged.filter((s) => s === 429)).toHaveLength(2);
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    const proxied = await serve(true);
    const clients = [];
    for (let i = 0; i < 5; i += 1) clients.push((await get(proxied, "/api/v1/search?q=x", { headers: { "x-forwarded-for": `10.0.0.${i}, 127.0.0.1` } })).status);
    expect(clients).toEqual([200, 200, 200, 200, 200]);
  });
});
