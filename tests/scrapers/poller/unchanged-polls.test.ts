import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SourceStatusTable } from "@/components/source-status-table";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import { listSourceStatus } from "@/db/queries/operator-status";
import { addVendor, getVendorBySlug } from "@/db/settings/vendors";
import { createHttpClient } from "@/scrapers/http/http-client";
import { HostGate } from "@/scrapers/http/polite-fetch";
import { type PollDeps, pollEndpoint } from "@/scrapers/poller/poll-vendor";
import { freshLocation, queryRows } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const FIXTURES = path.join(__dirname, "..", "..", "fixtures", "e2e", "acme-summary");
const BODY = fs.readFileSync(path.join(FIXTURES, "20260302T110000Z__summary.json"));
const CHANGED = fs.readFileSync(path.join(FIXTURES, "20260302T130000Z__summary.json"));
const START = Date.parse("2026-03-02T11:00:00.000Z");

/** A status page on loopback: serves `body` (with an ETag, answering 304s, when asked), or fails with `status`. */
interface Page {
  body: Buffer;
  etag: boolean;
  status: number;
  url: string;
  requests: number;
  close(): Promise<void>;
}

async function startPage(etag: boolean): Promise<Page> {
  const page = { body: BODY, etag, status: 200, requests: 0 } as Page;
  const server = http.createServer((req, res) => {
    page.requests += 1;
    if (page.status !== 200) {
      res.writeHead(page.status).end("unavailable");
      return;
    }
    const tag = page.body === BODY ? '"first"' : '"changed"';
    if (page.etag && req.headers["if-none-match"] === tag) {
      res.writeHead(304, { etag: tag }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json", ...(page.etag ? { etag: tag } : {}) }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  page.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/summary.json`;
  page.close = () => new Promise((resolve) => server.close(() => resolve()));
  return page;
}

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.reverse()) await fn();
  cleanup = [];
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-runs-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A poller's view of one vendor in an archive: polls are one minute apart, from `START + minute`. */
async function poller(location: string, page: Page) {
  const db = await openStore(location);
  let minute = 0;
  const deps: PollDeps = {
    db,
    client: createHttpClient({ userAgent: "Redline/test", maxBodyBytes: 1 << 20, maxRedirects: 0, allowPrivate: true, connectTimeoutMs: 60_000, responseTimeoutMs: 60_000 }),
    gate: new HostGate(0),
    retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 0 },
    followUpIntervalMs: 0,
    now: () => new Date(START + minute * 60_000),
  };
  const vendor = (await getVendorBySlug(db, "acme")) ?? (await addVendor(db, { slug: "acme", name: "Acme", platform: "statuspage", url: page.url }, "user"));
  return {
    db,
    at: (m: number) => new Date(START + m * 60_000).toISOString(),
    async poll(m: number) {
      minute = m;
      return pollEndpoint(deps, vendor, { url: page.url, platform: "statuspage-summary" });
    },
  };
}

interface RunRow {
  outcome: string;
  observedAt: string;
  lastObservedAt: string;
  observations: number;
  error: string | null;
}

function runs(db: RedlineDb): Promise<RunRow[]> {
  return queryRows<RunRow>(db, "SELECT outcome, observed_at AS observedAt, last_observed_at AS lastObservedAt, observations, error FROM captures ORDER BY observed_at");
}

describe.each([
  { etag: true, answer: "304s" },
  { etag: false, answer: "identical bodies" },
])(`1,000 unchanged polls answered with $answer (${testDatabaseDialect})`, ({ etag }) => {
  it("add one run row counting them, first and last observation right, and it continues across a restart", async () => {
    const page = await startPage(etag);
    cleanup.push(() => page.close());
    const location = await freshLocation(dir);
    const first = await poller(location, page);
    expect((await first.poll(0)).outcome).toBe("ok");
    for (let m = 1; m <= 1_000; m += 1) expect((await first.poll(m)).outcome).toBe("not-modified");
    expect(page.requests).toBe(1_001);
    expect(await runs(first.db)).toEqual([
      { outcome: "ok", observedAt: first.at(0), lastObservedAt: first.at(0), observations: 1, error: null },
      { outcome: "not-modified", observedAt: first.at(1), lastObservedAt: first.at(1_000), observations: 1_000, error: null },
    ]);
    await closeStore(first.db);

    const second = await poller(location, page);
    for (let m = 1_001; m <= 1_010; m += 1) expect((await second.poll(m)).outcome).toBe("not-modified");
    expect((await runs(second.db))[1]).toEqual({ outcome: "not-modified", observedAt: second.at(1), lastObservedAt: second.at(1_010), observations: 1_010, error: null });
    expect(await runs(second.db)).toHaveLength(2);

    page.body = CHANGED;
    expect((await second.poll(1_011)).outcome).toBe("ok");
    expect((await second.poll(1_012)).outcome).toBe("not-modified");
    expect((await runs(second.db)).map((r) => [r.outcome, r.observations])).toEqual([["ok", 1], ["not-modified", 1_010], ["ok", 1], ["not-modified", 1]]);
    await closeStore(second.db);
  });
});

describe(`failure runs (${testDatabaseDialect})`, () => {
  it("keep their error; the same error continues the run, another starts a new one, and the operator sees each source's last poll, change and failure", async () => {
    const page = await startPage(true);
    cleanup.push(() => page.close());
    const p = await poller(await freshLocation(dir), page);
    cleanup.push(() => closeStore(p.db));
    await p.poll(0);
    page.status = 503;
    for (let m = 1; m <= 20; m += 1) expect((await p.poll(m)).outcome).toBe("failed");
    page.status = 500;
    for (let m = 21; m <= 25; m += 1) expect((await p.poll(m)).outcome).toBe("failed");
    page.status = 200;
    for (let m = 26; m <= 30; m += 1) expect((await p.poll(m)).outcome).toBe("not-modified");
    const rows = await runs(p.db);
    expect(rows.map((r) => [r.outcome, r.observedAt, r.lastObservedAt, r.observations])).toEqual([
      ["ok", p.at(0), p.at(0), 1],
      ["failed", p.at(1), p.at(20), 20],
      ["failed", p.at(21), p.at(25), 5],
      ["not-modified", p.at(26), p.at(30), 5],
    ]);
    expect(rows[1]?.error).toMatch(/503/);
    expect(rows[2]?.error).toMatch(/500/);

    const [status] = await listSourceStatus(p.db);
    expect(status).toMatchObject({
      vendorSlug: "acme", source: page.url, lastPolledAt: p.at(30), lastChangedAt: p.at(0), lastFailedAt: p.at(25), observations: 31, runs: 4,
    });
    expect(status?.lastFailure).toMatch(/500/);
    const html = renderToStaticMarkup(createElement(SourceStatusTable, { sources: await listSourceStatus(p.db), now: new Date(START + 31 * 60_000) }));
    for (const at of [p.at(30), p.at(0), p.at(25)]) expect(html).toContain(`dateTime="${at}"`);
    expect(html).toContain(status?.lastFailure ?? "no failure");
    expect(html).toContain("31 (4)");
  });
});
