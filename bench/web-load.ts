/**
 * Web load benchmark: the web server (Next.js behind its page cache) on loopback against the large
 * archive (bench/seed-large.ts), loaded by autocannon at 50 connections for 15 s per target (home,
 * incident pages, change pages, search), beside a bare Node http server that reads the same
 * incident row with better-sqlite3 and returns it as JSON. Each server runs in its own process; autocannon runs in this one. Every
 * request names a different incident (or query); "rendered" targets ask the page cache to
 * revalidate, so every response is a fresh render, "cached" ones are served once rendered.
 * "1 write/s" loads the incident pages while another vendor records a new version every second,
 * as during an outage elsewhere: a version evicts only the pages that show it.
 * Goals: incident page p99 under 100 ms, and at least a third of the bare server's throughput.
 * The web server runs on SQLite and then on a PostgreSQL copy of the same archive, in one run
 * (bench/bench-databases.ts; `--db sqlite` or `--db postgres` for one); the bare server reads the SQLite file.
 * BENCH_WEB_ONLY=incident,change measures only the targets whose names contain one of those words.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { dialectLabel, onEachSeedCopy } from "@/bench/bench-databases";
import { describeMachine, ensureBuilt, type LoadResult, measureBareServer, measureWebServer, printResults, printSideBySide, selectTargets, startHelper, type Target } from "@/bench/http-load";
import { ensureLargeSeed } from "@/bench/seed-large";
import { createRandom } from "@/bench/synthetic-text";
import { toFtsQuery } from "@/db/queries/search";
import { registerSearchFunctions } from "@/db/search/search-text";
import { paths } from "@/lib/incident-key";

const ROOT = path.resolve(__dirname, "..");
/** A typical incident: opened, updated, resolved, edited once, aged out of the feed. */
const TYPICAL_VERSIONS = 5;
/** Incidents (and change pages) loaded per target; fewer on a busy machine, so the warm-up ends within the cache's minute. */
const SAMPLE = Number(process.env.BENCH_WEB_SAMPLE ?? 1_000);
const SEARCHES = [
  "replication lag", "expired certificate", "connection pools", "load balancer", "network partition",
  "memory leak", "webhook", "login failures", "failover", "throttling",
];

/** Typical incidents (and their versions) spread over every vendor, and the search queries. */
/** An outage at one vendor: a new version of its incident every second (bench/version-writer.ts). */
const WRITE_INTERVAL_MS = 1_000;
/** Fresh-render CPU per page before issue 12 (docs/benchmarks.md, SEED_VERSION 5 A/B). */
const BEFORE_MS = { "incident page": 16, "change page": 16 };

interface Picked {
  incidents: string[];
  changes: string[];
  searches: string[];
  matches: number[];
}

function pickPaths(file: string): Picked {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  registerSearchFunctions(db);
  try {
    const rows = db
      .prepare<[number], { slug: string; providerId: string }>(
        `SELECT d.slug, i.provider_id AS providerId FROM incidents i JOIN vendors d ON d.id = i.vendor_id WHERE i.version_count = ? ORDER BY i.id`,
      )
      .all(TYPICAL_VERSIONS);
    const random = createRandom(7);
    const sample = Array.from({ length: Math.min(SAMPLE, rows.length) }, () => rows[Math.floor(random() * rows.length)]).filter(
      (r): r is { slug: string; providerId: string } => r !== undefined,
    );
    const count = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM incident_search WHERE incident_search MATCH ?");
    return {
      matches: SEARCHES.map((q) => count.get(toFtsQuery(q) ?? q)?.n ?? 0),
      incidents: sample.map((r) => paths.incident(r.slug, r.providerId)),
      changes: sample.map((r) => paths.version(r.slug, r.providerId, 1 + Math.floor(random() * TYPICAL_VERSIONS))),
      searches: SEARCHES.map((q) => `/search?${new URLSearchParams({ q }).toString()}`),
    };
  } finally {
    db.close();
  }
}

/** The targets on the archive at `location`: the writer beside "1 write/s" records into that database. */
function targetsOn(location: string, { incidents, changes, searches }: Picked): Target[] {
  return [
    { name: "home / (rendered)", paths: ["/"], fresh: true },
    { name: "home / (cached)", paths: ["/"] },
    { name: "incident page (rendered)", paths: incidents, fresh: true },
    { name: "incident page (cached)", paths: incidents },
    {
      name: "incident page (1 write/s)",
      paths: incidents,
      alongside: () => startHelper(["--import", "tsx", path.join(__dirname, "version-writer.ts"), location, String(WRITE_INTERVAL_MS)], /^recorded 1 /m),
    },
    { name: "change page (rendered)", paths: changes, fresh: true },
    { name: "change page (cached)", paths: changes },
    { name: "search (rendered)", paths: searches, fresh: true },
    { name: "search (cached)", paths: searches },
  ];
}

export async function runWebBenchmark(): Promise<void> {
  const seed = ensureLargeSeed();
  console.log(
    `database: ${path.relative(ROOT, seed.file)}, ${seed.vendors} vendors, ${seed.incidents} incidents, ${seed.versions} versions, ` +
      `${seed.sizeMb.toFixed(0)} MB${seed.built ? `, built in ${seed.seconds.toFixed(0)} s (${seed.captures} captures)` : " (cached)"}`,
  );
  ensureBuilt();
  const picked = pickPaths(seed.file);
  const { matches } = picked;
  await describeMachine();
  console.log(`search: ${SEARCHES.length} queries matching ${Math.min(...matches)} to ${Math.max(...matches)} incidents each`);
  const runs = await onEachSeedCopy(seed.file, async ({ location }) => {
    const web = selectTargets(targetsOn(location, picked));
    const results: LoadResult[] = await measureWebServer(location, web.filter((t) => !t.alongside));
    // On a server of its own, so its pages were all rendered within the cache's minute when the load starts.
    for (const target of web.filter((t) => t.alongside)) results.push(...(await measureWebServer(location, [target])));
    return results;
  });
  // The yardstick last, as it always was: runs of older code measured in the same order compare.
  const bareResult = await measureBareServer(seed.file, { name: "bare http + better-sqlite3", paths: picked.incidents });
  for (const { database, result } of runs) {
    result.push(bareResult);
    console.log(`-- ${dialectLabel(database.dialect)}`);
    printResults(result);
  }
  for (const { database, result: results } of runs) {
    const label = dialectLabel(database.dialect);
    for (const [page, before] of Object.entries(BEFORE_MS)) {
      const rendered = results.find((r) => r.target === `${page} (rendered)`);
      if (rendered) console.log(`${label}: fresh-render CPU per ${page}: ${rendered.serverCpuMsPerReq.toFixed(1)} ms (before issue 12: about ${before} ms)`);
    }
    for (const incident of results.filter((r) => r.target.startsWith("incident page"))) {
      const share = incident.reqPerSec / bareResult.reqPerSec;
      console.log(
        `${label}: goal ${incident.target}: p99 < 100 ms ${incident.p99 < 100 ? "met" : "NOT met"} (${incident.p99.toFixed(0)} ms); ` +
          `>= 1/3 of the bare server's req/s ${share >= 1 / 3 ? "met" : "NOT met"} (${(share * 100).toFixed(0)}%)`,
      );
    }
  }
  printSideBySide(runs);
}
