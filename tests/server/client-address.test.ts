import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { dropUntrustedForwarding, trustProxies } from "@/server/http/client-address";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

const FORWARDING = { "x-forwarded-for": "192.0.2.1", "x-forwarded-proto": "https", "x-forwarded-host": "evil.test", "x-forwarded-port": "443" };

/** A server trusting `proxies` that answers with the forwarding headers left for Next.js to read. */
async function serve(proxies: string[]): Promise<number> {
  const trust = trustProxies(proxies);
  server = http.createServer((req, res) => {
    dropUntrustedForwarding(req, trust);
    const kept = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name.startsWith("x-forwarded-")));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(kept));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as AddressInfo).port;
}

function forwardedHeaders(port: number, from: string): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/feed.atom", localAddress: from, headers: FORWARDING }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve(JSON.parse(body) as Record<string, string>));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("forwarding headers", () => {
  it("are dropped when the peer is not a trusted proxy, so a client cannot pick the scheme or host its links are made with", async () => {
    expect(await forwardedHeaders(await serve([]), "127.0.0.1")).toEqual({});
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    expect(await forwardedHeaders(await serve(["127.0.0.1"]), "127.0.0.2")).toEqual({});
  });

  it("are kept as a trusted proxy sent them", async () => {
    expect(await forwardedHeaders(await serve(["loopback"]), "127.0.0.2")).toEqual(FORWARDING);
  });

  it("are trusted from an IPv4 proxy whether the peer is written as IPv4 or IPv4-mapped IPv6", () => {
    const trust = trustProxies(["10.0.0.0/8"]);
    expect(trust("10.1.2.3", 0)).toBe(true);
    expect(trust("::ffff:10.1.2.3", 0)).toBe(true);
    expect(trust("::ffff:192.0.2.1", 0)).toBe(false);
    expect(trustProxies([])("127.0.0.1", 0)).toBe(false);
  });
});
