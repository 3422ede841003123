/**
 * `npm run bench -- search-load`: pages while costly searches run. The web server as `npm start`
 * runs it (its bundle) on loopback against the large archive (bench/seed-large.ts), SQLite.
 * autocannon loads home and incident pages in turn (as the page cache serves them) at 50
 * connections for 15 s, alone and then while 24 worst-case searches are kept in flight: the two
 * 3-letter prefix words and six whole words that cost the most on this archive
 * (bench/search-words.ts times the candidates), every request a different order and spelling so
 * the page cache misses, 3 in 4 to /search and 1 in 4 to /api/v1/search. Beside both, one reader
 * opens a vendor page or the vendor list every 250 ms: Next renders those afresh each time (they
 * show polling health), too costly to load at 50 connections; what one reader waits for them says
 * whether the server is held. Once with searches on a thread of their own
 * (REDLINE_SEARCH_WORKERS=1, the default) and once on the server's thread (0).
 * Goal: the pages' p99 under 100 ms with REDLINE_SEARCH_WORKERS=1, every search answered 200 or
 * refused 503 with Retry-After. BENCH_SEARCH_WORKERS=1 runs one of the two.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { CONNECTIONS, describeMachine, ensureBuilt, measureWebServer, sampleBusyShare, SECONDS, type LoadResult, type Target } from "@/bench/http-load";
import { findCostlySearch, searchVariant, type SearchCandidate } from "@/bench/search-words";
import { ensureLargeSeed } from "@/bench/seed-large";
import { createRandom } from "@/bench/synthetic-text";
import { paths } from "@/lib/incident-key";

const ROOT = path.resolve(__dirname, "..");
const IN_FLIGHT = 24;
/** One search in this many asks the API, the others the page. */
const API_EVERY = 4;
const INCIDENT_SAMPLE = 500;
/** The reader's pause between two vendor pages: Next renders each (48-120 ms of CPU), so a few a second, not a load. */
const READER_PAUSE_MS = 250;
const WORKER_RUNS = (process.env.BENCH_SEARCH_WORKERS ?? "1,0").split(",").filter(Boolean);

interface SearchTally {
  answers: Array<{ kind: "page" | "api"; status: number; retryAfter: boolean; ms: number; error?: string }>;
  /** Answers that came after the page load had ended (the searches in flight then, awaited). */
  late: number;
  /** Share of both cores busy during the load, all processes counted. */
  busy: number;
}

interface WorkerRun {
  workers: string;
  alone: LoadResult;
  loaded: LoadResult;
  searches: SearchTally;
}

interface Pages {
  /** Home and incident pages, interleaved: each request of the load takes the next. */
  load: string[];
  /** Vendor pages and the vendor list, for the reader beside the load. */
  reader: string[];
}

function pickPages(file: string): Pages {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const vendors = db.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY id").all().map((r) => r.slug);
    const incidents = db
      .prepare<[], { slug: string; providerId: string }>("SELECT d.slug, i.provider_id AS providerId FROM incidents i JOIN vendors d ON d.id = i.vendor_id ORDER BY i.id")
      .all();
    const random = createRandom(34);
    const load = Array.from({ length: INCIDENT_SAMPLE }, () => {
      const incident = incidents[Math.floor(random() * incidents.length)];
      if (!incident) throw new Error("bench: the archive has no incidents");
      return ["/", paths.incident(incident.slug, incident.providerId)];
    }).flat();
    return { load, reader: [...vendors.map((slug) => paths.vendor(slug)), "/vendors"] };
  } finally {
    db.close();
  }
}

const percentile = (sorted: readonly number[], q: number): number => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;

/** IN_FLIGHT searches at all times until stopped: each answer starts the next, never the same address twice. */
function keepSearching(base: string, words: readonly string[], next: { k: number }, tally: SearchTally): { stop(): Promise<void> } {
  let stopping = false;
  const loop = async (slot: number) => {
    while (!stopping) {
      const q = searchVariant(words, next.k++);
      const address = slot % API_EVERY === API_EVERY - 1 ? `${base}/api/v1/search?${new URLSearchParams({ q })}` : `${base}/search?${new URLSearchParams({ q })}`;
      const kind = address.includes("/api/") ? "api" : "page";
      const started = performance.now();
      try {
        const response = await fetch(address);
        await response.arrayBuffer();
        tally.answers.push({ kind, status: response.status, retryAfter: response.headers.has("retry-after"), ms: performance.now() - started });
      } catch (error) {
        const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        tally.answers.push({ kind, status: 0, retryAfter: false, ms: performance.now() - started, error: cause });
      }
      if (stopping) tally.late += 1;
    }
  };
  const loops = Array.from({ length: IN_FLIGHT }, (_, slot) => loop(slot));
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

/** One reader opening a vendor page (or the vendor list) after each READER_PAUSE_MS pause, its latencies kept. */
function keepReading(base: string, pages: readonly string[], latencies: number[]): { stop(): Promise<void> } {
  let stopping = false;
  const loop = async () => {
    for (let i = 0; !stopping; i += 1) {
      const started = performance.now();
      try {
        const response = await fetch(`${base}${pages[i % pages.length] ?? "/vendors"}`);
        await response.arrayBuffer();
        latencies.push(response.ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      } catch {
        latencies.push(Number.POSITIVE_INFINITY);
      }
      await new Promise((r) => setTimeout(r, READER_PAUSE_MS));
    }
  };
  const reading = loop();
  return {
    stop: async () => {
      stopping = true;
      await reading;
    },
  };
}

function describeReader(latencies: readonly number[]): string {
  const ms = [...latencies].sort((a, b) => a - b);
  const failed = ms.filter((m) => m === Number.POSITIVE_INFINITY).length;
  return `vendor pages read one at a time: ${ms.length}, p50 ${percentile(ms, 0.5).toFixed(0)} ms, p99 ${percentile(ms, 0.99).toFixed(0)} ms, max ${percentile(ms, 1).toFixed(0)} ms${failed ? `, ${failed} failed` : ""}`;
}

function describeSearches(t: SearchTally): string {
  const count = (test: (a: SearchTally["answers"][number]) => boolean) => t.answers.filter(test).length;
  const ms = t.answers.map((a) => a.ms).sort((a, b) => a - b);
  const other = count((a) => a.status !== 200 && a.status !== 503);
  const why = [...new Set(t.answers.filter((a) => a.status !== 200 && a.status !== 503).map((a) => a.error ?? `status ${a.status}`))].slice(0, 3);
  return (
    `${t.answers.length} searches (page ${count((a) => a.kind === "page")}, API ${count((a) => a.kind === "api")}): ` +
    `200 ×${count((a) => a.status === 200)}, 503 ×${count((a) => a.status === 503)} (${count((a) => a.status === 503 && a.retryAfter)} with Retry-After), other ×${other}${why.length ? ` (${why.join("; ")})` : ""}; ` +
    `latency p50 ${percentile(ms, 0.5).toFixed(0)} ms, p99 ${percentile(ms, 0.99).toFixed(0)} ms, max ${percentile(ms, 1).toFixed(0)} ms; ` +
    `${t.late} answered after the load; cores ${(t.busy * 100).toFixed(0)}% busy`
  );
}

async function measureWorkers(file: string, pages: Pages, search: SearchCandidate, workers: string, next: { k: number }): Promise<WorkerRun> {
  const tally: SearchTally = { answers: [], late: 0, busy: 0 };
  const reader = { alone: [] as number[], loaded: [] as number[] };
  let base = "";
  const targets: Target[] = [
    {
      name: "pages alone",
      paths: pages.load,
      alongside: async () => {
        const reading = keepReading(base, pages.reader, reader.alone);
        return {
          stop: async () => {
            await reading.stop();
            return describeReader(reader.alone);
          },
        };
      },
    },
    {
      name: `pages + ${IN_FLIGHT} searches`,
      paths: pages.load,
      alongside: async () => {
        const busy = sampleBusyShare(SECONDS * 1000);
        const reading = keepReading(base, pages.reader, reader.loaded);
        const searching = keepSearching(base, search.words, next, tally);
        return {
          stop: async () => {
            tally.busy = await busy;
            await reading.stop();
            await searching.stop();
            return `${describeReader(reader.loaded)}\n  ${describeSearches(tally)}`;
          },
        };
      },
    },
  ];
  const [alone, loaded] = await measureWebServer(file, targets, async (b) => {
    base = b;
    const first = await fetch(`${b}/search?${new URLSearchParams({ q: searchVariant(search.words, next.k++) })}`);
    await first.arrayBuffer();
    if (first.status !== 200 && first.status !== 503) throw new Error(`bench: the search ${JSON.stringify(search.words.join(" "))} answered ${first.status}`);
  }, { env: { REDLINE_SEARCH_WORKERS: workers }, bundled: true });
  if (!alone || !loaded) throw new Error("bench: a target was not measured");
  return { workers, alone, loaded, searches: tally };
}

const pagesMet = (r: LoadResult): boolean => r.reqPerSec > 0 && r.errors === 0 && r.non2xx === 0 && r.p99 < 100;

function printRuns(runs: readonly WorkerRun[]): void {
  const pageCells = (r: LoadResult) => `${r.reqPerSec.toFixed(0).padStart(6)} ${r.p50.toFixed(0).padStart(5)} ${r.p99.toFixed(0).padStart(6)} ${r.max.toFixed(0).padStart(6)} ${String(r.non2xx + r.errors).padStart(6)}`;
  console.log(`pages (${CONNECTIONS} connections, ${SECONDS} s): req/s, p50 / p99 / max ms, non-2xx or errors`);
  console.log("REDLINE_SEARCH_WORKERS   alone: req/s   p50    p99    max  bad   with searches: req/s   p50    p99    max  bad");
  for (const run of runs) console.log(`${run.workers.padEnd(22)} ${" ".repeat(6)}${pageCells(run.alone)} ${" ".repeat(15)}${pageCells(run.loaded)}`);
  for (const run of runs) {
    console.log(`REDLINE_SEARCH_WORKERS=${run.workers}, pages alone: ${run.alone.alongside ?? ""}`);
    console.log(`REDLINE_SEARCH_WORKERS=${run.workers}, with searches: ${run.loaded.alongside ?? ""}`);
    const refused = run.searches.answers.filter((a) => a.status !== 200 && !(a.status === 503 && a.retryAfter)).length;
    console.log(
      // autocannon's latencies are of answered requests: with none answered its p99 reads 0.
      `REDLINE_SEARCH_WORKERS=${run.workers}: goal pages p99 < 100 ms with searches ${pagesMet(run.loaded) ? "met" : "NOT met"} ` +
        `(${run.loaded.p99.toFixed(0)} ms, ${run.loaded.reqPerSec.toFixed(0)} req/s, ${run.loaded.errors} errors); ` +
        `every search answered or refused with Retry-After ${refused === 0 ? "met" : `NOT met (${refused} not)`}`,
    );
  }
}

export async function runSearchLoadBenchmark(): Promise<void> {
  const seed = ensureLargeSeed();
  console.log(
    `archive: ${path.relative(ROOT, seed.file)}, ${seed.vendors} vendors, ${seed.incidents} incidents, ${seed.versions} versions, ` +
      `${seed.sizeMb.toFixed(0)} MB${seed.built ? `, built in ${seed.seconds.toFixed(0)} s` : " (cached)"}`,
  );
  ensureBuilt();
  await describeMachine();
  const search = await findCostlySearch(seed.file);
  console.log(`worst-case search: ${JSON.stringify(search.words.join(" "))}: ${search.ms.toFixed(0)} ms alone in process, ${search.hits} hits on its first page`);
  const pages = pickPages(seed.file);
  console.log(`pages: / and ${INCIDENT_SAMPLE} incident pages in turn at ${CONNECTIONS} connections; beside them one reader of ${pages.reader.length} vendor pages and the list`);
  const next = { k: 0 };
  const runs: WorkerRun[] = [];
  for (const workers of WORKER_RUNS) runs.push(await measureWorkers(seed.file, pages, search, workers, next));
  printRuns(runs);
}
