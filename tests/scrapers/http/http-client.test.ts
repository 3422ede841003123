import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpClient, guardedLookup, HttpError, type HttpClientOptions } from "@/scrapers/http/http-client";

const hits: Record<string, number> = {};
let userAgent = "";
const server = http.createServer((req, res) => {
  const path = req.url ?? "/";
  hits[path] = (hits[path] ?? 0) + 1;
  userAgent = req.headers["user-agent"] ?? "";
  switch (path) {
    case "/etag":
      if (req.headers["if-none-match"] === '"v1"') {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { etag: '"v1"', "last-modified": "Mon, 30 Nov 2026 00:00:00 GMT", "content-type": "application/json" }).end('{"ok":true}');
      return;
    case "/gzip":
      res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync("compressed body"));
      return;
    case "/br":
      res.writeHead(200, { "content-encoding": "br" }).end(zlib.brotliCompressSync("brotli body"));
      return;
    case "/bomb":
      res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync(Buffer.alloc(5_000_000)));
      return;
    case "/huge": {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 32);
      let sent = 0;
      const pump = () => {
        while (sent < 512 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (sent < 512 * 1024 * 1024 && !res.destroyed) res.once("drain", pump);
      };
      res.on("close", () => { sent = Infinity; });
      pump();
      return;
    }
    case "/hang":
      return;
    case "/truncated":
      res.writeHead(200, { "content-length": "100" });
      res.write("only part");
      setTimeout(() => res.destroy(), 20);
      return;
    case "/429":
      res.writeHead(429, { "retry-after": "7" }).end();
      return;
    case "/404":
      res.writeHead(404).end("nope");
      return;
    case "/loop":
      res.writeHead(302, { location: "/loop" }).end();
      return;
    case "/bad-redirect":
      res.writeHead(302, { location: "http://[oops/" }).end();
      return;
    case "/to-etag":
      res.writeHead(301, { location: "/etag" }).end();
      return;
    default:
      res.writeHead(200).end("hello");
  }
});

let base = "";
// Timeouts no busy machine reaches, so every case but the one about timing out shows its own outcome.
const options: HttpClientOptions = {
  userAgent: "Redline/test (+https://example.test/contact)",
  connectTimeoutMs: 120_000,
  responseTimeoutMs: 120_000,
  maxBodyBytes: 1_000_000,
  maxRedirects: 3,
  allowPrivate: true,
};
const client = createHttpClient(options);

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return error;
}

describe("the HTTP client", () => {
  it("sends its User-Agent and returns the validators; a conditional repeat is a 304 with no body", async () => {
    const first = await client.get(`${base}/etag`);
    expect(first).toMatchObject({ status: 200, notModified: false, etag: '"v1"', lastModified: "Mon, 30 Nov 2026 00:00:00 GMT" });
    expect(first.body.toString()).toBe('{"ok":true}');
    expect(userAgent).toBe(options.userAgent);
    const again = await client.get(`${base}/etag`, { etag: first.etag });
    expect(again).toMatchObject({ status: 304, notModified: true });
    expect(again.body.length).toBe(0);
  });

  it("decompresses gzip and brotli bodies", async () => {
    expect((await client.get(`${base}/gzip`)).body.toString()).toBe("compressed body");
    expect((await client.get(`${base}/br`)).body.toString()).toBe("brotli body");
  });

  it("stops reading a body over the cap, compressed or not", async () => {
    expect((await failure(client.get(`${base}/huge`))).kind).toBe("too-large");
    expect((await failure(client.get(`${base}/bomb`))).kind).toBe("too-large");
  });

  it("gives up on a server that never answers, as a transient timeout", async () => {
    const impatient = createHttpClient({ ...options, responseTimeoutMs: 800 });
    const error = await failure(impatient.get(`${base}/hang`));
    expect(error).toMatchObject({ kind: "timeout", transient: true });
  });

  it("reports a truncated body instead of returning part of it", async () => {
    expect((await failure(client.get(`${base}/truncated`))).kind).toBe("protocol");
  });

  it("classifies 429 as transient with the server's Retry-After, and 404 as permanent", async () => {
    expect(await failure(client.get(`${base}/429`))).toMatchObject({ kind: "status", status: 429, transient: true, retryAfterMs: 7000 });
    expect(await failure(client.get(`${base}/404`))).toMatchObject({ kind: "status", status: 404, transient: false });
  });

  it("follows redirects up to the cap and refuses a loop", async () => {
    expect((await client.get(`${base}/to-etag`)).url).toBe(`${base}/etag`);
    expect((await failure(client.get(`${base}/loop`))).kind).toBe("redirects");
  });

  it("fails a redirect to an unreadable Location as a permanent protocol error instead of throwing out of the response", async () => {
    const error = await failure(client.get(`${base}/bad-redirect`));
    expect(error).toMatchObject({ kind: "protocol", transient: false });
    expect(error.message).toContain("http://[oops/");
  });

  it("refuses loopback and private targets unless allowed, before connecting", async () => {
    const strict = createHttpClient({ ...options, allowPrivate: false });
    const before = hits["/"] ?? 0;
    expect(await failure(strict.get(`${base}/`))).toMatchObject({ kind: "blocked", transient: false });
    expect(await failure(strict.get("http://localhost:1/"))).toMatchObject({ kind: "blocked" });
    expect(await failure(strict.get("http://[::1]:1/"))).toMatchObject({ kind: "blocked" });
    expect(await failure(strict.get("http://localhost.:1/"))).toMatchObject({ kind: "blocked" });
    expect(await failure(strict.get("http://[::127.0.0.1]:1/"))).toMatchObject({ kind: "blocked" });
    expect(await failure(strict.get("http://[2002:7f00:1::]:1/"))).toMatchObject({ kind: "blocked" });
    expect(await failure(strict.get("file:///etc/passwd"))).toMatchObject({ kind: "blocked" });
    expect(hits["/"] ?? 0).toBe(before);
  });

  it("refuses DNS answers that are IPv6 forms of a private IPv4 address, and keeps the public answers among them", async () => {
    const answers = [
      { address: "::7f00:1", family: 6 }, { address: "2002:7f00:1::", family: 6 }, { address: "64:ff9b::a9fe:a9fe", family: 6 },
      { address: "2001:0:4136:e378:8000:63bf:80ff:fffe", family: 6 }, { address: "2002:808:808::", family: 6 },
    ];
    const lookup = guardedLookup(false, (_name, _options, callback) => callback(null, answers));
    const kept = await new Promise<unknown>((resolve) => lookup("status.example.com", { all: true }, (_e, addresses) => resolve(addresses)));
    expect(kept).toEqual([{ address: "2002:808:808::", family: 6 }]);
    const onlyPrivate = guardedLookup(false, (_name, _options, callback) => callback(null, answers.slice(0, 4)));
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => onlyPrivate("status.example.com", { all: true }, (e) => resolve(e)));
    expect(error?.code).toBe("EREDLINEBLOCKED");
  });

  it("refuses a host name whose DNS answers are all private", async () => {
    const lookup = guardedLookup(false);
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => lookup("localhost", { all: true }, (e) => resolve(e)));
    expect(error?.code).toBe("EREDLINEBLOCKED");
  });
});
