import http from "node:http";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("api");

describe("the JSON API through the web server", () => {
  it("serves its OpenAPI document and a first page of changes any origin may read", async () => {
    const doc = (await (await fetch(`${app().baseUrl}/api/v1/openapi.json`)).json()) as { openapi: string; servers: { url: string }[] };
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers[0]?.url).toBe(`${app().baseUrl}/api/v1`);
    const response = await fetch(`${app().baseUrl}/api/v1/changes?vendor=acme&limit=2`, { headers: { origin: "https://elsewhere.example" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const page = (await response.json()) as { data: { links: { html: string } }[]; next: string };
    expect(page.data).toHaveLength(2);
    expect(new URL(page.next).searchParams.get("cursor")).toMatch(/^[A-Za-z0-9_-]+$/);
    const html = await fetch(page.data[0]?.links.html ?? "");
    expect(html.status).toBe(200);
  });

  it("makes its links absolute with the server's own address, not with the Host a request names", async () => {
    // fetch cannot set Host; a plain request can, as any client on the network can.
    const getWithHost = (path: string, host: string) => new Promise<string>((resolve, reject) => {
      const request = http.get(`${app().baseUrl}${path}`, { headers: { host } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => (response.statusCode === 200 ? resolve(Buffer.concat(chunks).toString("utf8")) : reject(new Error(`${path}: ${response.statusCode}`))));
      });
      request.on("error", reject);
    });
    const page = JSON.parse(await getWithHost("/api/v1/changes?vendor=acme&limit=1", "evil.example")) as { data: { links: { html: string } }[]; next: string };
    expect(page.data[0]?.links.html.startsWith(`${app().baseUrl}/`)).toBe(true);
    expect(page.next.startsWith(`${app().baseUrl}/api/v1/changes?`)).toBe(true);
    const doc = JSON.parse(await getWithHost("/api/v1/openapi.json", "evil.example:80")) as { servers: { url: string }[] };
    expect(doc.servers[0]?.url).toBe(`${app().baseUrl}/api/v1`);
    const feed = await getWithHost("/vendors/acme/feed.atom", "evil.example");
    expect(feed).toContain(`href="${app().baseUrl}/vendors/acme/feed.atom"`);
    expect(feed).not.toContain("evil.example");
  });

  it("answers a preflight for reads, a bad parameter with a problem, and writes without the token with 401", async () => {
    const preflight = await fetch(`${app().baseUrl}/api/v1/changes`, { method: "OPTIONS", headers: { origin: "https://elsewhere.example", "access-control-request-method": "GET", "access-control-request-headers": "if-none-match" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/If-None-Match/i);
    const bad = await fetch(`${app().baseUrl}/api/v1/incidents?impact=huge`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ parameter: "impact" });
    const write = await fetch(`${app().baseUrl}/api/v1/vendors/acme`, { method: "DELETE" });
    expect(write.status).toBe(401);
    expect((await fetch(`${app().baseUrl}/api/v1/vendors/acme`)).status).toBe(200);
  });

  it("answers an address under /api/v1 that no route has with a JSON problem, while known routes still answer", async () => {
    for (const path of ["/api/v1/nope", "/api/v1/vendors/acme/nope", "/api/v1/vendors/acme/incidents/acmeapi00001/nope"]) {
      const response = await fetch(`${app().baseUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type"), path).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 404, title: "Not found" });
    }
    expect((await fetch(`${app().baseUrl}/api/v1/vendors/acme/incidents/acmeapi00001`)).status).toBe(200);
  });

  it("refuses a search past its limits with a 400 saying which limit, on the page and in the API, and counts the page in the client's budget", async () => {
    const q = encodeURIComponent("c* a* i* o* u* s* t* r* n* l* e* d*");
    const page = await fetch(`${app().baseUrl}/search?q=${q}`);
    expect(page.status).toBe(400);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("ratelimit")).toMatch(/^"per-client";r=\d+;t=\d+$/);
    expect(await page.text()).toContain("q: at most 8 words (this has 12): leave out the least telling");
    const api = await fetch(`${app().baseUrl}/api/v1/search?q=${q}`);
    expect(api.status).toBe(400);
    expect(await api.json()).toMatchObject({ status: 400, parameter: "q", detail: "q: at most 8 words (this has 12): leave out the least telling" });
    const within = await fetch(`${app().baseUrl}/search?q=${encodeURIComponent("acme* outage")}`);
    expect(within.status).toBe(200);
    expect(within.headers.get("ratelimit")).toMatch(/^"per-client";/);
  });
});
