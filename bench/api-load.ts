/**
 * Feed and API load benchmark, on the web benchmark's 100,000-incident archive and machinery
 * (bench/http-load.ts): every vendor's Atom feed and the first page of /api/v1/changes, rendered
 * on every request, served from the page cache, and answered 304 to a reader sending its ETag,
 * beside the same bare http + better-sqlite3 handler.
 * The web server runs on SQLite and then on a PostgreSQL copy of the same archive, in one run
 * (bench/bench-databases.ts; `--db sqlite` or `--db postgres` for one).
 * Goal: a vendor's Atom feed and the first page of /api/v1/changes under 50 ms p99 at 50 connections.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { dialectLabel, onEachSeedCopy } from "@/bench/bench-databases";
import { describeMachine, ensureBuilt, type LoadResult, measureBareServer, measureWebServer, printResults, printSideBySide, type Target } from "@/bench/http-load";
import { ensureLargeSeed } from "@/bench/seed-large";
import { paths } from "@/lib/incident-key";

const ROOT = path.resolve(__dirname, "..");

function pickPaths(file: string): { feeds: string[]; incidents: string[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const vendors = db.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY slug").all();
    const incidents = db
      .prepare<[], { slug: string; providerId: string }>(
        "SELECT d.slug, i.provider_id AS providerId FROM incidents i JOIN vendors d ON d.id = i.vendor_id WHERE i.id % 100 = 0 ORDER BY i.id",
      )
      .all();
    return { feeds: vendors.map((v) => paths.vendorFeed(v.slug, "atom")), incidents: incidents.map((r) => paths.incident(r.slug, r.providerId)) };
  } finally {
    db.close();
  }
}

/** Each path's current ETag, as a reader that fetched it before would hold it. */
function etagsOf(base: string): (paths: readonly string[]) => Promise<Map<string, string>> {
  return async (list) => {
    const tags = new Map<string, string>();
    for (const p of list) {
      const response = await fetch(`${base}${p}`);
      await response.arrayBuffer();
      const etag = response.headers.get("etag");
      if (etag) tags.set(p, etag);
    }
    return tags;
  };
}

export async function runApiBenchmark(): Promise<void> {
  const seed = ensureLargeSeed();
  console.log(`database: ${path.relative(ROOT, seed.file)}, ${seed.vendors} vendors, ${seed.incidents} incidents, ${seed.versions} versions`);
  ensureBuilt();
  const { feeds, incidents } = pickPaths(seed.file);
  await describeMachine();
  const changes = ["/api/v1/changes"];
  const runs = await onEachSeedCopy(seed.file, async ({ location }) => {
    // The readers' ETags are collected by the first targets' warm-up, through the server under test.
    const tags = new Map<string, string>();
    const conditional = (name: string, list: string[]): Target => ({ name, paths: list, headersFor: (p) => ({ "if-none-match": tags.get(p) ?? "" }) });
    const targets: Target[] = [
      { name: "vendor Atom feed (rendered)", paths: feeds, fresh: true },
      { name: "vendor Atom feed (cached)", paths: feeds },
      conditional("vendor Atom feed (304)", feeds),
      { name: "/api/v1/changes (rendered)", paths: changes, fresh: true },
      { name: "/api/v1/changes (cached)", paths: changes },
      conditional("/api/v1/changes (304)", changes),
    ];
    const results: LoadResult[] = await measureWebServer(location, targets, async (base) => {
      for (const [p, tag] of await etagsOf(base)([...feeds, ...changes])) tags.set(p, tag);
    });
    return results;
  });
  // The yardstick last, as it always was: runs of older code measured in the same order compare.
  const bare = await measureBareServer(seed.file, { name: "bare http + better-sqlite3", paths: incidents });
  for (const { database, result } of runs) {
    result.push(bare);
    console.log(`-- ${dialectLabel(database.dialect)}`);
    printResults(result);
  }
  for (const { database, result } of runs) {
    for (const r of result.filter((x) => !x.target.startsWith("bare"))) {
      console.log(`${dialectLabel(database.dialect)}: goal ${r.target}: p99 < 50 ms ${r.p99 < 50 ? "met" : "NOT met"} (${r.p99.toFixed(0)} ms)`);
    }
  }
  printSideBySide(runs);
}
