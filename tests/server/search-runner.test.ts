import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openDatabase, openStore, type RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { listIncidents } from "@/db/queries/incident-list";
import { searchIncidents, toFtsQuery } from "@/db/queries/search";
import { createApi } from "@/server/api/api";
import { answerSearchesBusy } from "@/server/search/admission";
import { createPostgresSearches } from "@/server/search/postgres";
import { installSearchRunner, isSearchStopped, SearchStopped, searchRunnerFor } from "@/server/search/runner";
import { createSearchThreads, type SearchThreads } from "@/server/search/threads";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-search-runner-"));
const file = path.join(dir, "archive.db");
const QUERY = toFtsQuery("webhook* deliveries") ?? "";
const FILTER = {};
const PAGE = { limit: 10, offset: 0 };
const pools: SearchThreads[] = [];
let db: RedlineDb;

/**
 * A connection holding the archive's file so no other connection can read it: rollback-journal
 * mode with an exclusive lock. A search thread's statement then waits in SQLite's busy handler,
 * native code its thread cannot leave, as a costly statement would, for as long as the test holds it.
 */
function lockArchive(): { release(): void } {
  const holder = new Database(file);
  holder.pragma("locking_mode = EXCLUSIVE");
  holder.exec("BEGIN EXCLUSIVE");
  return {
    release() {
      holder.exec("COMMIT");
      holder.close();
    },
  };
}

function startThreads(options: { budgetMs: number; maxWaiting?: number; size?: number }) {
  const lines: string[] = [];
  const threads = createSearchThreads({ location: file, size: options.size ?? 1, budgetMs: options.budgetMs, maxWaiting: options.maxWaiting ?? 8, here: db, log: (line) => lines.push(line) });
  pools.push(threads);
  return { threads, lines };
}

beforeAll(async () => {
  db = await openStore(file);
  await archiveAcmeLifecycle(db);
  // Rollback-journal mode, so one connection's exclusive lock keeps every other from reading (WAL lets readers through).
  await closeStore(db);
  const plain = new Database(file);
  plain.pragma("journal_mode = DELETE");
  plain.close();
  db = openDatabase(file, { readonly: true });
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await closeStore(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("searches on threads of their own (SQLite)", () => {
  it("answer what the same search, and the lists' words, answer on the web server's thread", async () => {
    const { threads } = startThreads({ budgetMs: 60_000 });
    await threads.ready;
    const here = await searchIncidents(db, QUERY, FILTER, PAGE);
    expect(here.hits.length).toBeGreaterThan(0);
    expect(await threads.run("searchIncidents", [QUERY, FILTER, PAGE])).toEqual(here);
    // The lists' words run there too: their rows come back as the same plain data.
    const changes = await listChanges(db, { query: QUERY }, 10);
    expect(changes.rows.length).toBeGreaterThan(0);
    expect(await threads.run("listChanges", [{ query: QUERY }, 10])).toEqual(changes);
    expect(await threads.run("listIncidents", [{ query: QUERY }, 10])).toEqual(await listIncidents(db, { query: QUERY }, 10));
  });

  it("stop a search still running when its budget is spent, refuse one more than may wait and one that waited its budget, and go on once the statement in hand returns", async () => {
    const { threads } = startThreads({ budgetMs: 1_500, maxWaiting: 1 });
    await threads.ready;
    const lock = lockArchive();
    const running = threads.run("searchIncidents", [QUERY, FILTER, PAGE]).then(() => null, (error: unknown) => error);
    const waiting = threads.run("searchIncidents", [QUERY, FILTER, PAGE]).then(() => null, (error: unknown) => error);
    // One runs (held by the lock), one waits; the next is refused at once, and the web server refuses it at the door.
    expect(threads.saturated()).toBe(true);
    const refused = await threads.run("searchIncidents", [QUERY, FILTER, PAGE]).then(() => null, (error: unknown) => error);
    expect(isSearchStopped(refused) && refused.reason).toBe("busy");
    expect(String((refused as Error).message)).toBe("too many searches are running or waiting to run; retry in a few seconds");
    // The web server's thread is not held meanwhile: this test's own timers and promises run.
    const stopped = await running;
    expect(isSearchStopped(stopped) && stopped.reason).toBe("over-budget");
    expect((stopped as SearchStopped).message).toBe("the search ran past its 1.5 s budget and was stopped; fewer words ending in *, a vendor or a period make it cheaper");
    expect((stopped as SearchStopped).retryAfterSeconds).toBe(2);
    // Still waiting when its budget ran out (the thread held by the lock never came free): refused, never started.
    expect(isSearchStopped(await waiting) && (await waiting as SearchStopped).reason).toBe("busy");
    expect(threads.stoppedCount).toBe(1);
    lock.release();
    // The stopped thread ends once its statement returns and another takes the searches; asked
    // while its successor is still starting (slow on a busy machine), a search may run out of budget waiting: ask again.
    let after: Awaited<ReturnType<typeof searchIncidents>> | null = null;
    for (let attempt = 0; after === null && attempt < 20; attempt++) {
      after = await threads.run("searchIncidents", [QUERY, FILTER, PAGE]).catch((error: unknown) => {
        if (!isSearchStopped(error)) throw error;
        return null;
      });
    }
    if (after === null) throw new Error("no search answered after the lock was released");
    expect(threads.saturated()).toBe(false);
    expect(after.hits.length).toBeGreaterThan(0);
  });

  it("run searches on the web server's thread once the threads keep failing to start, so none is lost", async () => {
    const lines: string[] = [];
    const missing = path.join(dir, "missing.db");
    const threads = createSearchThreads({ location: missing, size: 1, budgetMs: 60_000, maxWaiting: 8, here: db, log: (line) => lines.push(line) });
    pools.push(threads);
    const answer = await threads.run("searchIncidents", [QUERY, FILTER, PAGE]);
    expect(answer.hits.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^search thread stopped \(exit code 1\): store: unable to open database file; .*missing\.db.*; 3 stops within 60 s, so it is not started again$/);
  });
});

describe("where a process's searches run", () => {
  it("runs them here without a runner, and on the runner installed for the same archive only", async () => {
    const other = openDatabase(":memory:");
    const calls: string[] = [];
    const uninstall = installSearchRunner(db, {
      run: async (name) => {
        calls.push(name);
        throw new SearchStopped("over-budget", 2_000);
      },
      saturated: () => false,
    });
    try {
      await expect(searchRunnerFor(db).run("searchIncidents", [QUERY, FILTER, PAGE])).rejects.toThrow(/ran past its 2 s budget/);
      expect((await searchRunnerFor(other).run("searchIncidents", [QUERY, FILTER, PAGE])).hits).toEqual([]);
      expect(calls).toEqual(["searchIncidents"]);
    } finally {
      uninstall();
      await closeStore(other);
    }
    expect((await searchRunnerFor(db).run("searchIncidents", [QUERY, FILTER, PAGE])).hits.length).toBeGreaterThan(0);
  });

  it("answers a stopped search in the API with a 503 problem and Retry-After, for the search and the lists' words", async () => {
    const uninstall = installSearchRunner(db, {
      run: async () => {
        throw new SearchStopped("over-budget", 3_000);
      },
      saturated: () => false,
    });
    try {
      const api = createApi(() => db);
      const context = { params: Promise.resolve({}) };
      const asked = [[api.search, "http://x/api/v1/search?q=api*"], [api.listIncidents, "http://x/api/v1/incidents?q=api*"], [api.listChanges, "http://x/api/v1/changes?q=api*"]] as const;
      for (const [handler, url] of asked) {
        const response = await handler(new Request(url), context);
        expect(response.status).toBe(503);
        expect(response.headers.get("retry-after")).toBe("3");
        expect(response.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
        expect(await response.json()).toMatchObject({ status: 503, title: "Service unavailable", detail: expect.stringContaining("ran past its 3 s budget") });
      }
      // A list without words is no search: it does not go to the runner.
      expect((await api.listIncidents(new Request("http://x/api/v1/incidents"), context)).status).toBe(200);
      expect((await api.listChanges(new Request("http://x/api/v1/changes"), context)).status).toBe(200);
    } finally {
      uninstall();
    }
  });
});

describePostgres("searches under a statement timeout (PostgreSQL)", () => {
  const database = withPostgresDatabase({ prefix: "redline_search_budget" });

  it("answers a search, and stops one held past its budget with SearchStopped, PostgreSQL cancelling it", async () => {
    const seeded = await openStore(database.url);
    await archiveAcmeLifecycle(seeded);
    await closeStore(seeded);
    const searches = createPostgresSearches({ url: database.url, budgetMs: 1_000 });
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      const first = await searches.run("searchIncidents", [QUERY, FILTER, PAGE]);
      expect(first.hits.length).toBeGreaterThan(0);
      // A lock no reader can pass: the search waits on it, as a costly one would run, until the server cancels it.
      await holder.query("BEGIN");
      await holder.query("LOCK TABLE incident_search IN ACCESS EXCLUSIVE MODE");
      const stopped = await searches.run("searchIncidents", [QUERY, FILTER, PAGE]).then(() => null, (error: unknown) => error);
      expect(isSearchStopped(stopped) && stopped.reason).toBe("over-budget");
      await holder.query("ROLLBACK");
      expect((await searches.run("searchIncidents", [QUERY, FILTER, PAGE])).hits).toEqual(first.hits);
    } finally {
      await holder.end();
      await searches.close();
    }
  });
});

describe("searches refused at the door while the search threads are full", () => {
  /** A server that answers what answerSearchesBusy answers, else 204. */
  async function doorServer(saturated: boolean): Promise<{ ask(path: string): Promise<{ status: number; type: string; retryAfter: string; body: string }>; close(): Promise<void> }> {
    const runner = { run: () => Promise.reject(new Error("not run at the door")), saturated: () => saturated };
    const server = http.createServer((req, res) => {
      if (!answerSearchesBusy(runner, 3_000, () => ["/_next/static/site.css"], req, res)) res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    return {
      ask: (pathname) => new Promise((resolve, reject) => {
        // Sent as written: fetch would resolve dot segments.
        http.get({ host: "127.0.0.1", port, path: pathname }, (response) => {
          let body = "";
          response.on("data", (chunk: Buffer) => (body += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode ?? 0, type: String(response.headers["content-type"] ?? ""), retryAfter: String(response.headers["retry-after"] ?? ""), body }));
        }).on("error", reject);
      }),
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    };
  }

  it("answers the search page with a short 503 page and the API's searches with a 503 problem, however the path is spelled", async () => {
    const door = await doorServer(true);
    try {
      const page = await door.ask("/search?q=res*+inc*");
      expect(page.status).toBe(503);
      expect(page.retryAfter).toBe("3");
      expect(page.type).toBe("text/html; charset=utf-8");
      expect(page.body).toContain("No answer: too many searches are running or waiting to run on this server. Wait 3 seconds, then <a href=\"/search?q=res*+inc*\">search again</a>.");
      expect(page.body).toContain('<link rel="stylesheet" href="/_next/static/site.css"');
      for (const path of ["/api/v1/search?q=res*", "/api/./v1/search?q=res*", "/api/v1/incidents?q=res*", "/api/v1/changes?q=res*"]) {
        const api = await door.ask(path);
        expect(api.status, path).toBe(503);
        expect(api.type).toBe("application/problem+json; charset=utf-8");
        expect(JSON.parse(api.body)).toMatchObject({ status: 503, title: "Service unavailable", detail: "too many searches are running or waiting to run; retry in a few seconds" });
      }
      // No words, no search: the empty search page, a list without words, and every other page pass.
      for (const path of ["/search", "/search?q=", "/api/v1/incidents", "/api/v1/changes", "/vendors/acme", "/feed.atom?q=x"]) expect((await door.ask(path)).status, path).toBe(204);
    } finally {
      await door.close();
    }
  });

  it("lets every search through while there is room", async () => {
    const door = await doorServer(false);
    try {
      for (const path of ["/search?q=res*", "/api/v1/search?q=res*"]) expect((await door.ask(path)).status, path).toBe(204);
    } finally {
      await door.close();
    }
  });
});
