/**
 * Component pages under load: the web server (Next.js behind its page cache) on loopback against the
 * component archive (bench/component-archive.ts: 1,000 vendors × 30 components × 2 years), loaded by
 * autocannon at 50 connections for 15 s per target. Every request names a different component of a
 * random vendor (groups included), with its default period (90 days) or a year; "rendered" targets
 * ask the page cache to revalidate, so every response is a fresh render. On SQLite and on a
 * PostgreSQL copy of the archive (`--db sqlite` or `--db postgres` for one).
 * Goal: component page p99 under 100 ms, rendered.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { dialectLabel, onEachSeedCopy } from "@/bench/bench-databases";
import { ensureComponentSeed } from "@/bench/component-archive";
import { describeMachine, ensureBuilt, measureWebServer, printResults, printSideBySide, selectTargets, type Target } from "@/bench/http-load";
import { createRandom } from "@/bench/synthetic-text";
import { paths } from "@/lib/incident-key";

const ROOT = path.resolve(__dirname, "..");
const SAMPLE = Number(process.env.BENCH_WEB_SAMPLE ?? 1_000);

function pickComponents(file: string): string[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare<[], { slug: string; key: string }>("SELECT v.slug, c.component_key AS key FROM components c JOIN vendors v ON v.id = c.vendor_id ORDER BY c.id").all();
    const random = createRandom(11);
    return Array.from({ length: Math.min(SAMPLE, rows.length) }, () => rows[Math.floor(random() * rows.length)])
      .filter((r): r is { slug: string; key: string } => r !== undefined)
      .map((r) => paths.component(r.slug, r.key));
  } finally {
    db.close();
  }
}

export async function runComponentPagesBenchmark(): Promise<void> {
  const seed = ensureComponentSeed();
  console.log(
    `archive: ${path.relative(ROOT, seed.file)}, ${seed.vendors} vendors, ${seed.components} components, ${seed.runs} component runs, ${seed.captures} captures, ` +
      `${seed.incidents} incidents, ${seed.sizeMb.toFixed(0)} MB${seed.built ? `, built in ${seed.seconds.toFixed(0)} s` : " (cached)"}`,
  );
  ensureBuilt();
  const components = pickComponents(seed.file);
  await describeMachine();
  const targets: Target[] = [
    { name: "component page (rendered)", paths: components, fresh: true },
    { name: "component page, a year (rendered)", paths: components.map((p) => `${p}?days=365`), fresh: true },
    { name: "component page (cached)", paths: components },
  ];
  // BENCH_WEB_ONLY=year,cached measures only the targets whose names contain one of those words.
  const runs = await onEachSeedCopy(seed.file, ({ location }) => measureWebServer(location, selectTargets(targets)));
  for (const { database, result } of runs) {
    console.log(`-- ${dialectLabel(database.dialect)}`);
    printResults(result);
    for (const r of result.filter((t) => t.target.includes("rendered"))) {
      console.log(`${dialectLabel(database.dialect)}: goal ${r.target}: p99 < 100 ms ${r.p99 < 100 ? "met" : "NOT met"} (${r.p99.toFixed(0)} ms)`);
    }
  }
  printSideBySide(runs);
}
