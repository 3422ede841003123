import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { paths } from "@/lib/incident-key";
import { type ArchivePagePool, createArchivePagePool, PageWorkerUnavailable, pooledRenderer } from "@/server/archive-page-pool";
import { renderArchivePage } from "@/server/archive-pages";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { freshLocation } from "@/tests/support/database";
import { component, grid, recordCaptures } from "@/tests/support/status-captures";

const STYLESHEETS = ["/_next/static/site.css"];
const NOW = new Date("2026-05-01T00:00:00.000Z");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-page-pool-"));
const pools: ArchivePagePool[] = [];
let location: string;
let db: RedlineDb;

/** A pool whose log lines are kept, with a way to wait for one. */
function startPool(at: string, size: number) {
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve(): void }> = [];
  const pool = createArchivePagePool({
    location: at,
    size,
    log: (line) => {
      lines.push(line);
      for (const w of waiting.filter((w) => w.pattern.test(line))) w.resolve();
    },
  });
  pools.push(pool);
  const logged = (pattern: RegExp) => (lines.some((l) => pattern.test(l)) ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ pattern, resolve })));
  return { pool, lines, logged };
}

beforeAll(async () => {
  location = await freshLocation(dir);
  db = await openStore(location);
  await archiveAcmeLifecycle(db);
  const gridded = await ensureVendor(db, { slug: "gridded", name: "Gridded", platform: "statuspage" });
  await recordCaptures(db, gridded, [
    grid("2026-04-20T10:00:00.000Z", [component("api", "operational"), component("web", "operational")]),
    grid("2026-04-29T10:00:00.000Z", [component("api", "degraded_performance"), component("web", "operational")]),
  ]);
});

afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.close()));
  await closeStore(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("archive page workers", () => {
  it("render the same bytes as the web thread, for incident, change and component pages, and null for what names nothing", async () => {
    const { pool } = startPool(location, 2);
    await pool.ready;
    const pages: Array<[string, string]> = [
      [paths.incident("acme", "k3x9"), ""],
      [`${paths.incident("acme", "k3x9")}/versions/2`, ""],
      [paths.component("gridded", "api"), ""],
      [paths.component("gridded", "api"), "?days=365"],
      [paths.component("gridded", "nope"), ""],
      [paths.incident("nope", "k3x9"), ""],
    ];
    // All at once: two workers take them, each answer reaching the request that asked for it.
    const rendered = await Promise.all(pages.map(([pathname, search]) => pool.render({ pathname, search, stylesheets: STYLESHEETS, now: NOW.getTime() })));
    for (const [i, [pathname, search]] of pages.entries()) {
      const here = await renderArchivePage(db, pathname, STYLESHEETS, NOW, search);
      expect(rendered[i], pathname + search).toBe(here);
    }
    expect(rendered.slice(0, 4).every((page) => page !== null && page.includes("site.css"))).toBe(true);
    expect(rendered.slice(4)).toEqual([null, null]);
  });

  it("fail a page whose render fails with its error, which the web thread does not try again", async () => {
    // An archive without its tables: the worker opens it, and the page's first query fails.
    const empty = await freshLocation(dir, { name: "empty", migrated: false });
    if (!empty.includes("://")) fs.writeFileSync(empty, "");
    const { pool } = startPool(empty, 1);
    const request = { pathname: paths.incident("acme", "k3x9"), search: "", stylesheets: STYLESHEETS, now: NOW.getTime() };
    const failure = await pool.render(request).then(() => null, (error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(PageWorkerUnavailable);
    expect(String(failure)).toMatch(/vendors/);
    let fellBack = false;
    const render = pooledRenderer(pool, () => STYLESHEETS, async () => {
      fellBack = true;
      return "here";
    });
    await expect(render(request.pathname, "", NOW)).rejects.toThrow(/vendors/);
    expect(fellBack).toBe(false);
  });

  it("replace a worker that stops, and once one keeps stopping, leave its pages to the web thread", async () => {
    // A worker cannot open an archive that is not there: it stops as it starts, three times.
    const { pool, lines, logged } = startPool(path.join(dir, "missing", "archive.db"), 1);
    await logged(/3 stops within 60 s, so its pages are rendered on the web thread/);
    expect(lines.filter((l) => /starting another/.test(l))).toHaveLength(2);
    expect(lines[0]).toMatch(/archive page worker stopped \(exit code 1\): .*(unable to open|does not exist|no such file)/i);
    const request = { pathname: paths.incident("acme", "k3x9"), search: "", stylesheets: STYLESHEETS, now: NOW.getTime() };
    await expect(pool.render(request)).rejects.toBeInstanceOf(PageWorkerUnavailable);
    const render = pooledRenderer(pool, () => STYLESHEETS, (pathname, search, now) => renderArchivePage(db, pathname, STYLESHEETS, now, search));
    expect(await render(request.pathname, "", NOW)).toBe(await renderArchivePage(db, request.pathname, STYLESHEETS, NOW));
  });

  it("fail the pages a stopping pool holds as unavailable, so the web thread renders them", async () => {
    const { pool } = startPool(location, 1);
    await pool.ready;
    const request = { pathname: paths.component("gridded", "api"), search: "", stylesheets: STYLESHEETS, now: NOW.getTime() };
    const held = pool.render(request).then(() => "rendered", (error: unknown) => error);
    await pool.close();
    const outcome = await held;
    // The worker may have answered before it was stopped; if not, the page is unavailable, never lost.
    if (outcome !== "rendered") expect(outcome).toBeInstanceOf(PageWorkerUnavailable);
    await expect(pool.render(request)).rejects.toBeInstanceOf(PageWorkerUnavailable);
  });
});
