import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";
import { SCREENSHOT_DIR } from "@/tests/e2e/support/seed-database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const SEARCH = "/search?q=webhook*";
const API_SEARCH = "/api/v1/search?q=webhook*";
const API_LIST = "/api/v1/incidents?q=webhook*";

describe(`searches under a time budget, through the real web server (${testDatabaseDialect})`, () => {
  const app = startE2eApp("search-budget", { env: { REDLINE_SEARCH_TIMEOUT_MS: "1500", REDLINE_RATE_LIMIT_PER_SECOND: "0" } });

  it("says how searches run when it starts, and answers the search page itself, with the form, the hits and no script", async () => {
    const log = fs.readFileSync(path.join(SCREENSHOT_DIR, "search-budget-next-start.log"), "utf8");
    expect(log).toContain(
      testDatabaseDialect === "postgres"
        ? "web: searches run on connections of their own, stopped after 1.5 s (REDLINE_SEARCH_TIMEOUT_MS)"
        : "web: searches run on 1 thread of their own (REDLINE_SEARCH_WORKERS), stopped after 1.5 s (REDLINE_SEARCH_TIMEOUT_MS)",
    );
    const page = await fetch(`${app().baseUrl}${SEARCH}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<form class="filters" role="search" aria-label="Search incidents" action="\/search" method="get">/);
    expect(html).toContain('<ol class="search-results" start="1"><li><div><a href="/vendors/');
    expect(html).toContain('<a href="/vendors/acme/incidents/acmehook0001">Delayed webhook deliveries</a>');
    expect(html).not.toContain("<script");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const api = await fetch(`${app().baseUrl}${API_SEARCH}`);
    expect(api.status).toBe(200);
    expect(((await api.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  it("answers 24 searches at once, each with its hits or a 503 saying why, and pages meanwhile", async () => {
    const words = ["webhook*", "deliveries", "delayed"];
    const asked = Array.from({ length: 24 }, (_, i) => {
      // A different spelling each, so none is served from the page cache.
      const q = [...words.slice(i % 3), ...words.slice(0, i % 3)].join(" ") + " ".repeat(Math.floor(i / 3));
      return fetch(`${app().baseUrl}/search?q=${encodeURIComponent(q)}`);
    });
    const page = await fetch(`${app().baseUrl}/vendors/acme`);
    expect(page.status).toBe(200);
    for (const answer of await Promise.all(asked)) {
      const html = await answer.text();
      if (answer.status === 503) {
        expect(answer.headers.get("retry-after")).toBe("2");
        expect(html).toMatch(/No answer: (the search ran past its 1\.5 s budget and was stopped|too many searches are running or waiting to run)/);
      } else {
        expect(answer.status).toBe(200);
        expect(html).toContain('class="search-results"');
      }
    }
  });

  // On SQLite no lock can hold one connection's reads and not the others' (tests/server/search-runner.test.ts
  // holds a search thread that way, with no web server beside it); PostgreSQL's table locks can.
  it.runIf(testDatabaseDialect === "postgres")("stops a search held past its budget with a 503 page and problem, while pages answer", async () => {
    const holder = new pg.Client({ connectionString: app().database });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      // No search can read the index past this lock, as a costly search would run on; pages never read it.
      await holder.query("LOCK TABLE incident_search IN ACCESS EXCLUSIVE MODE");
      const [page, api, list, vendor] = await Promise.all([
        fetch(`${app().baseUrl}/search?q=webhook*+held`),
        fetch(`${app().baseUrl}${API_SEARCH}&limit=7`),
        fetch(`${app().baseUrl}${API_LIST}&limit=7`),
        fetch(`${app().baseUrl}/vendors/acme`),
      ]);
      expect(vendor.status).toBe(200);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("2");
      const html = await page.text();
      expect(html).toContain("No answer: the search ran past its 1.5 s budget and was stopped; fewer words ending in *, a vendor or a period make it cheaper.");
      // The form is still there, with the words asked.
      expect(html).toMatch(/<input type="search"[^>]* name="q" value="webhook\* held"\/>/);
      for (const answer of [api, list]) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
        expect(await answer.json()).toMatchObject({ status: 503, detail: expect.stringContaining("ran past its 1.5 s budget") });
      }
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    // The lock gone, the same searches answer.
    expect((await fetch(`${app().baseUrl}${API_SEARCH}&limit=7`)).status).toBe(200);
  });
});
