import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { E2E_OPERATOR_TOKEN } from "@/tests/e2e/support/app-server";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request sent as written: fetch would resolve `/./` and `%2e` segments, and cannot name a Host. */
function send(baseUrl: string, pathname: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: pathname, method: options.method ?? "GET", headers: options.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

/** What is left of a client's budget, as its answer's RateLimit header says. */
function remaining(answer: Answer): number | null {
  const match = /^"per-client";r=(\d+);t=\d+$/.exec(String(answer.headers.ratelimit ?? ""));
  return match ? Number(match[1]) : null;
}

function expectSecurityHeaders(answer: Answer, where: string): void {
  expect(answer.headers["x-content-type-options"], where).toBe("nosniff");
  expect(answer.headers["x-frame-options"], where).toBe("DENY");
  expect(String(answer.headers["content-security-policy"] ?? ""), where).toContain("frame-ancestors 'none'");
}

const BURST = 10;
const HSTS = "max-age=31536000";

let clients = 0;
/** A client of its own for each use, named by the trusted proxy, so no test spends another's budget. */
function newClient(): string {
  clients += 1;
  return `198.51.100.${clients}`;
}

describe("behind a trusted proxy, with a budget of 10 requests per client", () => {
  // The loopback peer is the proxy, so X-Forwarded-For names the client; the budget refills by one
  // every 1,000 s, so no test's count changes while a slow machine runs it.
  const app = startE2eApp("hardening", { env: { REDLINE_TRUSTED_PROXIES: "loopback", REDLINE_RATE_LIMIT_BURST: String(BURST), REDLINE_RATE_LIMIT_PER_SECOND: "0.001" } });

  it("answers 10 of 200 concurrent requests to /api/./v1/vendors/acme from one client and refuses 190 with 429, each with its RateLimit header", async () => {
    const client = newClient();
    const answers = await Promise.all(Array.from({ length: 200 }, () => send(app().baseUrl, "/api/./v1/vendors/acme", { headers: { "x-forwarded-for": client } })));
    expect(answers.filter((a) => remaining(a) === null).length, "answers without a RateLimit header").toBe(0);
    const served = answers.filter((a) => a.status === 200);
    expect(served.length).toBe(BURST);
    expect(answers.filter((a) => a.status === 429).length).toBe(200 - BURST);
    // The spelling reaches the vendor's route: what was served is Acme.
    for (const answer of served) expect(JSON.parse(answer.body)).toMatchObject({ slug: "acme" });
  });

  it("counts a request to the API against the client's budget however its path is spelled", async () => {
    for (const spelling of ["/api/v1/vendors/acme", "/api/./v1/vendors/acme", "/api/%2e/v1/vendors/acme", "/api/x/../v1/vendors/acme", "/api//v1/vendors/acme", "/%61pi/v1/vendors/acme", "/api\\v1/vendors/acme"]) {
      const client = newClient();
      const first = await send(app().baseUrl, spelling, { headers: { "x-forwarded-for": client } });
      const second = await send(app().baseUrl, spelling, { headers: { "x-forwarded-for": client } });
      expect(`${spelling}: ${remaining(first)}, ${remaining(second)}`).toBe(`${spelling}: ${BURST - 1}, ${BURST - 2}`);
    }
  });

  it("refuses a search past its caps with a 400 naming the cap, on the page and in the API, before running it", async () => {
    const client = { "x-forwarded-for": newClient() };
    const cases = [
      ["status outage login api webhook delay error region dns", /at most 8 words \(this has 9\)/],
      ["acme* outa* stat*", /at most 2 words ending in \* \(this has 3\)/],
      ["ac* outage", /a word ending in \* needs at least 3 letters before the \*/],
    ] as const;
    for (const [q, cap] of cases) {
      const page = await send(app().baseUrl, `/search?q=${encodeURIComponent(q)}`, { headers: client });
      expect(`${q}: ${page.status}`).toBe(`${q}: 400`);
      expect(page.headers["content-type"], q).toMatch(/^text\/html/);
      expect(page.body.replaceAll("&quot;", '"'), q).toMatch(cap);
      const api = await send(app().baseUrl, `/api/v1/search?q=${encodeURIComponent(q)}`, { headers: client });
      expect(`${q}: ${api.status}`).toBe(`${q}: 400`);
      expect(api.headers["content-type"], q).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(api.body), q).toMatchObject({ status: 400, parameter: "q", detail: expect.stringMatching(cap) });
    }
    // Within the caps, a search is answered.
    expect((await send(app().baseUrl, `/search?q=${encodeURIComponent("acme* outage")}`, { headers: client })).status).toBe(200);
  });

  it("refuses a subscription target with a malformed percent escape with a 400 problem naming the target, not a 500", async () => {
    const answer = await send(app().baseUrl, "/api/v1/subscriptions", {
      method: "POST",
      headers: { "x-forwarded-for": newClient(), authorization: `Bearer ${E2E_OPERATOR_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ target: "mailto:%E0%A4%A" }),
    });
    expect(answer.status, answer.body).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, parameter: "target", detail: expect.stringMatching(/malformed percent escape/) });
  });

  it("gives each reader of a kept feed their own RateLimit standing, not the one of the reader who filled the cache", async () => {
    const [first, second] = [newClient(), newClient()];
    const firstAnswers: Answer[] = [];
    for (let i = 0; i < 4; i += 1) firstAnswers.push(await send(app().baseUrl, "/feed.atom", { headers: { "x-forwarded-for": first } }));
    const secondAnswer = await send(app().baseUrl, "/feed.atom", { headers: { "x-forwarded-for": second } });
    expect([...firstAnswers, secondAnswer].map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    // Answered from the page cache after the first, and still each one's own count.
    expect([...firstAnswers.slice(1), secondAnswer].map((a) => a.headers["x-redline-cache"])).toEqual(["hit", "hit", "hit", "hit"]);
    expect(firstAnswers.map(remaining)).toEqual([BURST - 1, BURST - 2, BURST - 3, BURST - 4]);
    expect(remaining(secondAnswer)).toBe(BURST - 1);
  });

  it("gives a calendar client that renders descriptions as HTML a hostile maintenance's words only: no tag, no javascript: link", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-hardening-"));
    const hour = 3_600_000;
    const observed = new Date(Date.now() - hour);
    const start = new Date(Date.now() + 48 * hour);
    const snapshot = {
      page: { id: "evilpage0001", name: "Evil Maintenance", url: "https://status.evil.example", time_zone: "Etc/UTC", updated_at: observed.toISOString() },
      incident: {
        id: "evilmaint001", name: "<script>window.__xss=1</script>Database upgrade", status: "scheduled", impact: "maintenance", shortlink: null,
        created_at: observed.toISOString(), started_at: observed.toISOString(), resolved_at: null,
        scheduled_for: start.toISOString(), scheduled_until: new Date(start.getTime() + 2 * hour).toISOString(),
        postmortem_body: null, postmortem_published_at: null,
        components: [{ id: "evilcmp00001", name: "Data<b>base</b>" }],
        incident_updates: [{
          id: "evilupd00001", status: "scheduled", created_at: observed.toISOString(), display_at: observed.toISOString(),
          body: 'Upgrade planned. <script>window.__xss=2</script>See <a href="javascript:window.__xss=3">details</a> or [the plan](javascript:window.__xss=4) or <a href="data:text/html,x">this</a>.',
        }],
      },
    };
    const stamp = observed.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
    fs.writeFileSync(path.join(dir, `${stamp}__incident.json`), JSON.stringify(snapshot));
    try {
      await app().redline(["import", dir, "--vendor", "evilmaint", "--name", "Evil Maintenance", "--platform", "statuspage-incident"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const answer = await send(app().baseUrl, "/vendors/evilmaint/maintenance.ics", { headers: { "x-forwarded-for": newClient() } });
    expect(answer.status).toBe(200);
    const events = new ICAL.Component(ICAL.parse(answer.body)).getAllSubcomponents("vevent");
    expect(events).toHaveLength(1);
    const description = String(events[0]?.getFirstPropertyValue("description") ?? "");
    const summary = String(events[0]?.getFirstPropertyValue("summary") ?? "");
    expect(description).toMatch(/Upgrade planned\..*details/s);
    expect(summary).toMatch(/Database upgrade$/);
    for (const [field, value] of [["DESCRIPTION", description], ["SUMMARY", summary]] as const) {
      expect(value, field).not.toMatch(/<[a-z/!?]|javascript:|data:|__xss/i);
    }
  });

  it("sends HSTS when the trusted proxy says the request came over https, and none over plain http", async () => {
    const client = newClient();
    const addresses = [["GET", "/"], ["GET", "/vendors/acme"], ["GET", "/healthz"], ["GET", "/readyz"], ["GET", "/api/v1/vendors/acme"], ["GET", "/_next/static/nope.js"], ["POST", "/api/v1/hooks/nobody/guess"]] as const;
    for (const [method, address] of addresses) {
      const overHttps = await send(app().baseUrl, address, { method, headers: { "x-forwarded-for": client, "x-forwarded-proto": "https" }, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(overHttps.headers["strict-transport-security"], `${method} ${address} over https`).toBe(HSTS);
      expectSecurityHeaders(overHttps, `${method} ${address}`);
    }
    // A page answered from the cache follows how this request came in, not the one that filled it.
    const kept = await send(app().baseUrl, "/", { headers: { "x-forwarded-for": client, "x-forwarded-proto": "https" } });
    expect([kept.headers["x-redline-cache"], kept.headers["strict-transport-security"]]).toEqual(["hit", HSTS]);
    for (const address of ["/", "/healthz", "/api/v1/vendors/acme"]) {
      const plain = await send(app().baseUrl, address, { headers: { "x-forwarded-for": newClient() } });
      expect(plain.headers["strict-transport-security"], `${address} over http`).toBeUndefined();
    }
  });
});

describe("with an https public URL", () => {
  const PUBLIC_URL = "https://redline.example";
  const app = startE2eApp("hardening-https", { env: { REDLINE_PUBLIC_URL: PUBLIC_URL } });

  it("sends HSTS on every answer: pages, health checks, the API, webhook refusals, static misses", async () => {
    for (const [method, address] of [["GET", "/"], ["GET", "/vendors/acme"], ["GET", "/healthz"], ["GET", "/readyz"], ["GET", "/api/v1/vendors/acme"], ["GET", "/_next/static/nope.js"], ["POST", "/api/v1/hooks/nobody/guess"]] as const) {
      const answer = await send(app().baseUrl, address, { method, ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
      expect(answer.headers["strict-transport-security"], `${method} ${address}`).toBe(HSTS);
      expectSecurityHeaders(answer, `${method} ${address}`);
    }
  });

  it("makes links in API answers and feeds absolute with the public URL, whatever Host a request names", async () => {
    const changes = await send(app().baseUrl, "/api/v1/changes?vendor=acme&limit=1", { headers: { host: "evil.example" } });
    expect(changes.status).toBe(200);
    const page = JSON.parse(changes.body) as { data: { links: { html: string } }[]; next: string };
    expect(page.data[0]?.links.html.startsWith(`${PUBLIC_URL}/vendors/acme/`)).toBe(true);
    expect(page.next.startsWith(`${PUBLIC_URL}/api/v1/changes?`)).toBe(true);
    const feed = await send(app().baseUrl, "/vendors/acme/feed.atom", { headers: { host: "evil.example" } });
    expect(feed.body).toContain(`href="${PUBLIC_URL}/vendors/acme/feed.atom"`);
    for (const answer of [changes, feed]) expect(answer.body).not.toContain("evil.example");
  });

  it("sends the security headers and HSTS on a 500 too", async () => {
    // An archive that lost its vendors table. The proxy's lookup before /vendors/acme fails, so the
    // 500 gets no header from it: only the web server can give that answer its headers.
    const db = await openStore(app().database, { migrate: false });
    try {
      await db.connection.exec("ALTER TABLE vendors RENAME TO vendors_gone");
      for (const address of ["/vendors/acme", "/api/v1/vendors"]) {
        const answer = await send(app().baseUrl, address);
        expect(`${address} ${answer.status}`).toBe(`${address} 500`);
        expectSecurityHeaders(answer, address);
        expect(answer.headers["strict-transport-security"], address).toBe(HSTS);
      }
    } finally {
      await db.connection.exec("ALTER TABLE vendors_gone RENAME TO vendors");
      await closeStore(db);
    }
  });
});
