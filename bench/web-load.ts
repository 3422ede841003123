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
 * BENCH_WEB_ONLY=incident,change measures only the targets whose names contain one of those words.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { describeMachine, ensureBuilt, type LoadResult, measureBareServer, measureWebServer, printResults, startHelper, type Target } from "@/bench/http-load";
import { ensureLargeSeed } from "@/bench/seed-large";
import { createRandom } from "@/bench/synthetic-text";
import { toFtsQuery } from "@/db/queries/search";
import { registerSearchFunctions } from "@/db/search-text";
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

function pickTargets(file: string): { targets: Target[]; matches: number[] } {
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
    const matches = SEARCHES.map((q) => count.get(toFtsQuery(q) ?? q)?.n ?? 0);
    const incidents = sample.map((r) => paths.incident(r.slug, r.providerId));
    const changes = sample.map((r) => paths.version(r.slug, r.providerId, 1 + Math.floor(random() * TYPICAL_VERSIONS)));
    const searches = SEARCHES.map((q) => `/search?${new URLSearchParams({ q }).toString()}`);
    return {
      matches,
      targets: [
        { name: "home / (rendered)", paths: ["/"], fresh: true },
        { name: "home / (cached)", paths: ["/"] },
        { name: "incident page (rendered)", paths: incidents, fresh: true },
        { name: "incident page (cached)", paths: incidents },
        {
          name: "incident page (1 write/s)",
          paths: incidents,
          alongside: () => startHelper(["--import", "tsx", path.join(__dirname, "version-writer.ts"), file, String(WRITE_INTERVAL_MS)], /^recorded 1 /m),
        },
        { name: "change page (rendered)", paths: changes, fresh: true },
        { name: "change page (cached)", paths: changes },
        { name: "search (rendered)", paths: searches, fresh: true },
        { name: "search (cached)", paths: searches },
        { name: "bare http + better-sqlite3", paths: incidents },
      ],
    };
  } finally {
    db.close();
  }
}

export async function runWebBenchmark(): Promise<void> {
  const seed = ensureLargeSeed();
  console.log(
    `database: ${path.relative(ROOT, seed.file)}, ${seed.vendors} vendors, ${seed.incidents} incidents, ${seed.versions} versions, ` +
      `${seed.sizeMb.toFixed(0)} MB${seed.built ? `, built in ${seed.seconds.toFixed(0)} s (${seed.captures} captures)` : " (cached)"}`,
  );
  ensureBuilt();
  const only = (process.env.BENCH_WEB_ONLY ?? "").split(",").filter(Boolean);
  const picked = pickTargets(seed.file);
  const { matches } = picked;
  const targets = picked.targets.filter((t, i, all) => only.length === 0 || i === all.length - 1 || only.some((word) => t.name.includes(word)));
  await describeMachine();
  console.log(`search: ${SEARCHES.length} queries matching ${Math.min(...matches)} to ${Math.max(...matches)} incidents each`);
  const bareTarget = targets.at(-1);
  if (!bareTarget) throw new Error("bench: no bare target");
  const web = targets.slice(0, -1);
  const results: LoadResult[] = await measureWebServer(seed.file, web.filter((t) => !t.alongside));
  // On a server of its own, so its pages were all rendered within the cache's minute when the load starts.
  for (const target of web.filter((t) => t.alongside)) results.push(...(await measureWebServer(seed.file, [target])));
  results.push(await measureBareServer(seed.file, bareTarget));
  printResults(results);
  const bareResult = results.at(-1);
  for (const [page, before] of Object.entries(BEFORE_MS)) {
    const rendered = results.find((r) => r.target === `${page} (rendered)`);
    if (rendered) console.log(`fresh-render CPU per ${page}: ${rendered.serverCpuMsPerReq.toFixed(1)} ms (before issue 12: about ${before} ms)`);
  }
  for (const incident of results.filter((r) => r.target.startsWith("incident page"))) {
    if (!bareResult) break;
    const share = incident.reqPerSec / bareResult.reqPerSec;
    console.log(
      `goal ${incident.target}: p99 < 100 ms ${incident.p99 < 100 ? "met" : "NOT met"} (${incident.p99.toFixed(0)} ms); ` +
        `>= 1/3 of the bare server's req/s ${share >= 1 / 3 ? "met" : "NOT met"} (${(share * 100).toFixed(0)}%)`,
    );
  }
}
