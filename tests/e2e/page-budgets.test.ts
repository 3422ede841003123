import http from "node:http";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const BURST = 4;
const INCIDENT = "/vendors/acme/incidents/acmeapi00001";
const FILTERED = "/vendors/acme/changes?kind=update-edited";

// The loopback peer is the proxy, so X-Forwarded-For names the client; the budget refills by one
// every 1,000 s, so no count changes while a slow machine runs the test.
const app = startE2eApp("page-budgets", { env: { REDLINE_TRUSTED_PROXIES: "loopback", REDLINE_RATE_LIMIT_BURST: String(BURST), REDLINE_RATE_LIMIT_PER_SECOND: "0.001" } });

/** A request sent as written (fetch would resolve `/./` and drop a bare `?`), from the client `from` names. */
function send(pathname: string, from: string | null, headers: Record<string, string> = {}): Promise<Answer> {
  const { hostname, port } = new URL(app().baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: pathname, headers: { ...headers, ...(from ? { "x-forwarded-for": from } : {}) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
    request.end();
  });
}

/** What is left of a client's budget, as its answer's RateLimit header says; null without one. */
function remaining(answer: Answer): number | null {
  const match = /^"per-client";r=(\d+);t=\d+$/.exec(String(answer.headers.ratelimit ?? ""));
  return match ? Number(match[1]) : null;
}

describe(`pages that cost a query, with a budget of ${BURST} requests per client`, () => {
  it("answers a filtered list and an export 429 once the burst is spent, while plain pages, the router's plain pages and static files still answer", async () => {
    const client = "198.51.100.1";
    const spent = [];
    for (const address of [FILTERED, `${INCIDENT}/export.md`, `${INCIDENT}/compare?from=1&to=5`, "/?kind=update-edited"]) spent.push(await send(address, client));
    expect(spent.map((a) => `${a.status} ${remaining(a)}`)).toEqual(["200 3", "200 2", "200 1", "200 0"]);

    const list = await send(FILTERED, client);
    expect(list.status).toBe(429);
    expect(list.headers["content-type"]).toMatch(/^text\/html/);
    expect(list.headers["retry-after"]).toMatch(/^\d+$/);
    expect(remaining(list)).toBe(0);
    expect(list.body).toContain("asked for too many pages in a short time");
    const exported = await send(`${INCIDENT}/export.json`, client);
    expect(exported.status).toBe(429);
    expect(exported.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(remaining(exported)).toBe(0);
    expect(JSON.parse(exported.body)).toMatchObject({ status: 429 });
    // However the filtered list is spelled, it is the same list.
    expect((await send("/vendors/acme/./changes?kind=update-edited", client)).status).toBe(429);
    expect((await send("/vendors/acme/changes?kind=update-edited&_rsc=1a2b3", client, { rsc: "1" })).status).toBe(429);

    const plain = await send("/vendors/acme/changes", client);
    expect(plain.status).toBe(200);
    expect(remaining(plain)).toBeNull();
    for (const address of ["/vendors/acme/changes?", "/vendors/acme", INCIDENT]) {
      const answer = await send(address, client);
      expect(`${address} ${answer.status} ${remaining(answer)}`).toBe(`${address} 200 null`);
    }
    // Next's client router opening the plain page: Next sends it on to the `_rsc` its headers hash to, and answers its payload there.
    const router = { rsc: "1" };
    const guessed = await send("/vendors/acme/changes?_rsc=1a2b3", client, router);
    const location = String(guessed.headers.location ?? "");
    expect(`${guessed.status} ${remaining(guessed)} ${location}`).toMatch(/^307 null \/vendors\/acme\/changes\?_rsc(?:=\w*)?$/);
    const payload = await send(location, client, router);
    expect(`${payload.status} ${remaining(payload)} ${payload.headers["content-type"]}`).toBe("200 null text/x-component");
    // The files a page loads never count, the icon's `?<hash>` included.
    const assets = [...plain.body.matchAll(/(?:href|src)="(\/(?:_next\/static\/[^"]+|icon\.svg\?[^"]*))"/g)].map((m) => (m[1] ?? "").replaceAll("&amp;", "&"));
    expect(assets.some((a) => a.startsWith("/icon.svg?")), "the page links its icon with a query").toBe(true);
    expect(assets.some((a) => a.startsWith("/_next/static/")), "the page loads the build's files").toBe(true);
    for (const asset of assets) {
      const answer = await send(asset, client);
      expect(`${asset} ${answer.status} ${remaining(answer)}`).toBe(`${asset} 200 null`);
    }
    // Another client has a budget of its own.
    expect((await send(FILTERED, "198.51.100.2")).status).toBe(200);
  });

  it("shows a person who spent the budget the site's 429 page on a filtered list, with a link back to it, and the plain page still", async () => {
    // The browser comes from the proxy's own address, with no X-Forwarded-For: that address is its client.
    for (let i = 0; i < BURST; i += 1) await send(`/vendors/acme?since=2026-03-0${i + 1}`, null);
    const page = await app().newPage();
    await app().visit(page, "/vendors/acme?since=2026-01-01", "refused", 429);
    await expect(page.locator("h1").textContent()).resolves.toBe("Too many requests");
    await expect(page.getByRole("alert").textContent()).resolves.toMatch(/^This address asked for too many pages in a short time\. Wait \d+ seconds, then try again\.$/);
    await expect(page.getByRole("link", { name: "try again" }).getAttribute("href")).resolves.toBe("/vendors/acme?since=2026-01-01");
    await app().visit(page, "/vendors/acme", "plain-page");
    await expect(page.locator("h1").textContent()).resolves.toMatch(/Acme/);
  });
});
