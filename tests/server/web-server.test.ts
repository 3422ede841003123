import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ArchiveChange } from "@/db/queries/archive-changes";
import { type ArchiveChangeFeed, PageCache } from "@/server/page-cache";
import { cacheKeyFor, cutAroundNonce, redactSecrets, type RequestHandler, withPageCache } from "@/server/web-server";

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** An archive that never changes, or one whose changes a test records as the triggers would. */
const UNCHANGED: ArchiveChangeFeed = { position: async () => 1, since: async () => [] };
function changingArchive() {
  const rows: ArchiveChange[] = [];
  const feed: ArchiveChangeFeed = { position: async () => rows.length, since: async (seq, limit) => rows.slice(seq, seq + limit) };
  return { feed, record: (vendorSlug: string | null, providerId: string | null = null, kinds: string[] | null = null) => void rows.push({ seq: rows.length + 1, vendorSlug, providerId, kinds }) };
}

/** A stand-in for Next: counts renders and answers in two writes, like a streamed page. */
async function serve(changes: ArchiveChangeFeed, status = 200, headers: Record<string, string> = {}) {
  const rendered: string[] = [];
  const render: RequestHandler = (req, res) => {
    rendered.push(req.url ?? "");
    res.statusCode = status;
    res.setHeader("content-type", "text/html; charset=utf-8");
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    res.write(`<p>render ${rendered.length} of ${req.url}`);
    res.end("</p>");
  };
  const cache = new PageCache({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlMs: 60_000 });
  server = http.createServer((req, res) => void withPageCache(render, cache, changes)(req, res));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return { status: response.status, cache: response.headers.get("x-redline-cache"), body: await response.text(), type: response.headers.get("content-type") };
  };
  return { rendered, get };
}

describe("the web server's page cache", () => {
  it("renders an incident page once and serves the same bytes to the next reader", async () => {
    const { rendered, get } = await serve(UNCHANGED);
    const first = await get("/vendors/acme/incidents/42");
    const second = await get("/vendors/acme/incidents/42");
    expect(first).toMatchObject({ status: 200, cache: "miss" });
    expect(second).toMatchObject({ status: 200, cache: "hit", body: first.body, type: "text/html; charset=utf-8" });
    expect(rendered).toHaveLength(1);
  });

  it("gives each reader of a kept answer their own RateLimit standing, never the one of the reader who filled the cache", async () => {
    let requests = 0;
    const render: RequestHandler = (_req, res) => {
      res.setHeader("content-type", "application/atom+xml");
      res.end("<feed/>");
    };
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlMs: 60_000 });
    const cached = withPageCache(render, cache, UNCHANGED);
    server = http.createServer((req, res) => {
      // As the rate limit does before the cache answers: this requester's standing.
      requests += 1;
      res.setHeader("ratelimit", `"per-client";r=${100 - requests};t=1`);
      res.setHeader("ratelimit-policy", '"per-client";q=120;w=12');
      void cached(req, res);
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.atom`;
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(url);
      answers.push([response.headers.get("x-redline-cache"), response.headers.get("ratelimit")]);
      await response.text();
    }
    expect(answers).toEqual([["miss", '"per-client";r=99;t=1'], ["hit", '"per-client";r=98;t=1'], ["hit", '"per-client";r=97;t=1']]);
  });

  it("renders an incident again once a version of it is archived, and keeps another vendor's incident as it was", async () => {
    const archive = changingArchive();
    const { rendered, get } = await serve(archive.feed);
    const pages = ["/vendors/a/incidents/1", "/vendors/b/incidents/1", "/vendors/b/incidents/2", "/vendors/b/changes", "/vendors/b/feed.atom", "/", "/feed.atom"];
    for (const path of pages) expect((await get(path)).cache).toBe("miss");
    archive.record("b", "1");
    const after = [];
    for (const path of pages) after.push((await get(path)).cache);
    expect(after).toEqual(["hit", "miss", "hit", "miss", "miss", "miss", "miss"]);
    expect((await get("/vendors/b/incidents/1")).body).toContain(`render ${pages.length + 1} of /vendors/b/incidents/1`);
    expect(rendered).toHaveLength(pages.length + 5);
  });

  it("renders a kind feed again only for a version of a kind it carries, including kinds its query adds", async () => {
    const archive = changingArchive();
    const { get } = await serve(archive.feed);
    const feeds = ["/kinds/update-edited/feed.rss", "/kinds/title-changed/feed.rss", "/kinds/title-changed/feed.rss?kind=update-edited", "/vendors/b/kinds/title-changed/feed.atom"];
    for (const path of feeds) expect((await get(path)).cache).toBe("miss");
    archive.record("b", "1", ["update-edited"]);
    const after = [];
    for (const path of feeds) after.push((await get(path)).cache);
    expect(after).toEqual(["miss", "hit", "miss", "hit"]);
  });

  it("keeps the page as it was at a moment, page and API alike, until a change of its vendor; the page as it is now is rendered each time", async () => {
    const archive = changingArchive();
    const { get } = await serve(archive.feed);
    const moments = ["/vendors/b/status?at=2026-03-01T10:00:00Z", "/api/v1/vendors/b/status?at=2026-03-01T10:00:00Z", "/vendors/a/status?at=2026-03-01T10:00:00Z"];
    for (const path of moments) expect((await get(path)).cache).toBe("miss");
    for (const path of ["/vendors/b/status", "/api/v1/vendors/b/status"]) {
      expect((await get(path)).cache).toBe("bypass");
      expect((await get(path)).cache).toBe("bypass");
    }
    // A component state of vendor b: its triggers name the vendor and no incident.
    archive.record("b");
    const after = [];
    for (const path of moments) after.push((await get(path)).cache);
    expect(after).toEqual(["miss", "miss", "hit"]);
  });

  it("renders afresh for a reader who asks to revalidate, and for pages that show poll health", async () => {
    const { rendered, get } = await serve(UNCHANGED);
    await get("/vendors/acme/incidents/42");
    expect((await get("/vendors/acme/incidents/42", { "cache-control": "no-cache" })).cache).toBe("bypass");
    await get("/vendors");
    expect((await get("/vendors")).cache).toBe("bypass");
    expect((await get("/vendors/acme")).cache).toBe("bypass");
    expect(rendered).toHaveLength(5);
  });

  it("keeps one feed or API answer whatever Host it is asked with, one per scheme, and answers a reader's validators from what it kept", async () => {
    const { rendered, get } = await serve(UNCHANGED, 200, { etag: 'W/"v1"' });
    const first = await get("/vendors/acme/feed.atom", { "if-none-match": 'W/"v1"' });
    // A miss renders in full (so it can be kept), whatever the reader already has.
    expect(first).toMatchObject({ status: 200, cache: "miss" });
    expect(await get("/vendors/acme/feed.atom", { "if-none-match": 'W/"v1"' })).toMatchObject({ status: 304, cache: "hit", body: "" });
    expect(await get("/vendors/acme/feed.atom", { "if-none-match": 'W/"v0"' })).toMatchObject({ status: 200, cache: "hit" });
    expect((await get("/api/v1/changes")).cache).toBe("miss");
    expect((await get("/api/v1/changes")).cache).toBe("hit");
    expect((await get("/api/v1/changes", { authorization: "Bearer x" })).cache).toBe("bypass");
    expect((await get("/api/v1/vendors")).cache).toBe("bypass");
    expect(rendered).toHaveLength(4);
    const key = (headers: Record<string, string>) => cacheKeyFor({ method: "GET", url: "/vendors/acme/feed.atom", headers } as unknown as http.IncomingMessage);
    // Links name the public URL or the listening address, never the Host: a sender choosing Hosts cannot split the cache.
    expect(key({ host: "a.test" })).toBe(key({ host: "b.test" }));
    for (const url of ["/maintenance.ics", "/vendors/acme/maintenance.ics"]) {
      expect(cacheKeyFor({ method: "GET", url, headers: { host: "a.test" } } as unknown as http.IncomingMessage)).toBe(` ${url}`);
    }
    expect(key({ host: "a.test", "x-forwarded-proto": "https" })).not.toBe(key({ host: "a.test", "x-forwarded-proto": "http" }));
  });

  it("keeps the client router's payloads apart from the HTML page", async () => {
    const { rendered, get } = await serve(UNCHANGED);
    await get("/");
    expect((await get("/", { rsc: "1" })).cache).toBe("bypass");
    expect((await get("/?_rsc=abc")).cache).toBe("bypass");
    expect(rendered).toHaveLength(3);
  });

  it("renders uncached, and logs why, when the archive revision cannot be read", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const { rendered, get } = await serve({
        position: () => Promise.reject(new Error("database is locked")),
        since: async () => [],
      });
      expect(await get("/vendors/acme/incidents/42")).toMatchObject({ status: 200, cache: "bypass", body: expect.stringContaining("render 1") });
      expect(rendered).toHaveLength(1);
      expect(logged).toHaveBeenCalledWith("web: page cache: unable to read the archive's changes: database is locked; rendering /vendors/acme/incidents/42 uncached");
    } finally {
      logged.mockRestore();
    }
  });

  it("does not keep error pages", async () => {
    const { rendered, get } = await serve(UNCHANGED, 404);
    await get("/vendors/acme/incidents/missing");
    expect((await get("/vendors/acme/incidents/missing")).cache).toBe("miss");
    expect(rendered).toHaveLength(2);
  });

  it("gives every reader of a kept page a nonce of its own, in the policy and in the page alike", async () => {
    const render: RequestHandler = (_req, res) => {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("content-security-policy", "script-src 'self' 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='");
      res.end('<script nonce="AAAAAAAAAAAAAAAAAAAAAA==">self.x=1</script>');
    };
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlMs: 60_000 });
    server = http.createServer((req, res) => void withPageCache(render, cache, UNCHANGED)(req, res));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/vendors/acme/incidents/1`;
    const nonces: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(url);
      const policy = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "";
      const inPage = /nonce="([^"]+)"/.exec(await response.text())?.[1];
      expect(inPage).toBe(policy);
      nonces.push(policy);
    }
    expect(new Set(nonces).size).toBe(3);
  });

  it("renders a kept page again when the polling banner comes or goes, and keeps feeds, which never show it", async () => {
    let failing = false;
    const rendered: string[] = [];
    // As the pages do: the render reads the pollers' outcomes itself.
    const render: RequestHandler = (req, res) => {
      rendered.push(req.url ?? "");
      const feed = (req.url ?? "").endsWith(".atom");
      res.setHeader("content-type", feed ? "application/atom+xml" : "text/html; charset=utf-8");
      res.end(feed ? "<feed/>" : `${failing ? '<p id="polling-notice">every poll fails</p>' : ""}<p>render ${rendered.length}</p>`);
    };
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlMs: 60_000 });
    server = http.createServer((req, res) => void withPageCache(render, cache, UNCHANGED, async () => failing)(req, res));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const get = async (path: string) => {
      const response = await fetch(`${base}${path}`);
      return { cache: response.headers.get("x-redline-cache"), banner: (await response.text()).includes('id="polling-notice"') };
    };
    expect([await get("/"), await get("/"), await get("/feed.atom")]).toEqual([
      { cache: "miss", banner: false }, { cache: "hit", banner: false }, { cache: "miss", banner: false },
    ]);
    failing = true;
    expect([await get("/"), await get("/"), await get("/feed.atom")]).toEqual([
      { cache: "miss", banner: true }, { cache: "hit", banner: true }, { cache: "hit", banner: false },
    ]);
    failing = false;
    expect([await get("/"), await get("/")]).toEqual([{ cache: "miss", banner: false }, { cache: "hit", banner: false }]);
    expect(rendered.filter((url) => url === "/")).toHaveLength(3);
  });

  it("keeps a page as rendered when the banner changed during its render, and serves it only while that holds", async () => {
    let failing = false;
    let shownBefore = false;
    const render: RequestHandler = (_req, res) => {
      // Every poll came to fail between the cache's look and the render's.
      failing = true;
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.end('<p id="polling-notice">every poll fails</p>');
    };
    const cache = new PageCache({ maxBytes: 1_000_000, maxEntryBytes: 100_000, ttlMs: 60_000 });
    server = http.createServer((req, res) => void withPageCache(render, cache, UNCHANGED, async () => (shownBefore = failing))(req, res));
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    expect((await fetch(url)).headers.get("x-redline-cache")).toBe("miss");
    expect(shownBefore).toBe(false);
    expect((await fetch(url)).headers.get("x-redline-cache")).toBe("hit");
  });

  it("cuts a kept page at every place it holds the nonce, so joining the pieces with it gives the page back", () => {
    const nonce = "AAAAAAAAAAAAAAAAAAAAAA==";
    const page = `${nonce}<p>café ✓</p><script nonce="${nonce}"></script><style nonce="${nonce}"></style>${nonce}`;
    const pieces = cutAroundNonce(Buffer.from(page), nonce);
    expect(pieces?.map((p) => p.toString())).toEqual(["", "<p>café ✓</p><script nonce=\"", "\"></script><style nonce=\"", "\"></style>", ""]);
    expect(pieces?.map((p) => p.toString()).join(nonce)).toBe(page);
    expect(cutAroundNonce(Buffer.from("<feed>no nonce here</feed>"), nonce)).toBeUndefined();
  });

  it("never logs a webhook's secret with its address", () => {
    expect(redactSecrets("/api/v1/hooks/acme/s3cr3t-value?x=1")).toBe("/api/v1/hooks/acme/[secret]?x=1");
    expect(redactSecrets("/vendors/acme")).toBe("/vendors/acme");
    expect(redactSecrets("/unsubscribe?s=sub_1&t=tok3n-value")).toBe("/unsubscribe?s=sub_1&t=[secret]");
  });
});
