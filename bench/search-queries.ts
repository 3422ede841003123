/**
 * `npm run bench -- search`: the search index's bytes and query latency with its text compressed
 * (incident_search over incident_search_text) beside the same archive with the previous layout's
 * plain FTS5 copy of the text. AWS's 2021-12 history from the corpus, or BENCH_DB (copied first).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRandom } from "@/bench/synthetic-text";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { listIncidents } from "@/db/queries/incident-list";
import { searchIncidents, toFtsQuery } from "@/db/queries/search";
import { ensureVendor } from "@/db/settings/vendors";
import { formatBytes } from "@/scrapers/cli/stats-command";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { CORPUS_DIR } from "@/tests/support/corpus-location";

const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 400);
const ROUNDS = 3;
/** The search page's page size. */
const PAGE = 25;

/** The index as migration 0003 made it, holding its own copy of the text the view decodes. */
function toPlainIndex(db: RedlineDb): void {
  db.$client.exec(`
    DROP TRIGGER incident_search_text_insert; DROP TRIGGER incident_search_text_update; DROP TRIGGER incident_search_text_delete;
    CREATE VIRTUAL TABLE plain_search USING fts5(title, updates, postmortem, tokenize = 'porter unicode61 remove_diacritics 2');
    INSERT INTO plain_search (rowid, title, updates, postmortem) SELECT incident_id, title, updates, postmortem FROM incident_search_source;
    DROP TABLE incident_search; DROP VIEW incident_search_source; DELETE FROM incident_search_text;
    ALTER TABLE plain_search RENAME TO incident_search;`);
}

/** Both indexes merged into one segment, so the comparison is of where the text is, not of how the index grew. */
function settle(file: string): void {
  const db = openDatabase(file, { migrate: false });
  db.$client.exec("INSERT INTO incident_search (incident_search) VALUES ('optimize'); VACUUM;");
  closeDatabase(db);
}

function searchBytes(db: RedlineDb): Array<{ name: string; bytes: number }> {
  return db.$client
    .prepare<[], { name: string; bytes: number }>("SELECT name, sum(pgsize) AS bytes FROM dbstat WHERE name LIKE 'incident_search%' GROUP BY name ORDER BY name")
    .all();
}

function queriesOf(db: RedlineDb): string[] {
  const titles = db.$client.prepare<[], { title: string }>("SELECT title FROM incidents").all().map((r) => r.title);
  const words = [...new Set(titles.flatMap((t) => t.toLowerCase().match(/\p{L}{4,}/gu) ?? []))].sort();
  const random = createRandom(11);
  const pick = () => words[Math.floor(random() * words.length)] ?? "outage";
  return Array.from({ length: QUERIES }, (_, i) => (i % 4 === 0 ? `${pick()} ${pick()}` : i % 4 === 1 ? `${pick().slice(0, 3)}*` : pick()));
}

async function timeQueries(db: RedlineDb, queries: readonly string[]): Promise<{ search: number[]; list: number[] }> {
  const search: number[] = [];
  const list: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const input of queries) {
      const query = toFtsQuery(input) ?? "outage";
      let started = performance.now();
      await searchIncidents(db, query, {}, { limit: PAGE, offset: 0 });
      if (round > 0) search.push(performance.now() - started);
      started = performance.now();
      await listIncidents(db, { query }, PAGE);
      if (round > 0) list.push(performance.now() - started);
    }
  }
  return { search, list };
}

const percentiles = (ms: number[]): string => {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => (sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN).toFixed(3);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
};

async function report(label: string, file: string, queries: readonly string[]): Promise<void> {
  const db = openDatabase(file, { migrate: false });
  try {
    const bytes = searchBytes(db);
    const total = bytes.reduce((sum, b) => sum + b.bytes, 0);
    console.log(`${label}: search tables ${formatBytes(total)} (${bytes.map((b) => `${b.name} ${formatBytes(b.bytes)}`).join(", ")}); file ${formatBytes(fs.statSync(file).size)}`);
    const times = await timeQueries(db, queries);
    console.log(`  searchIncidents (page of ${PAGE} with snippets), ${times.search.length} queries: ${percentiles(times.search)}`);
    console.log(`  listIncidents filtered by words, ${times.list.length} queries: ${percentiles(times.list)}`);
  } finally {
    closeDatabase(db);
  }
}

async function archiveOf(dir: string): Promise<string> {
  const file = path.join(dir, "compressed.db");
  const given = process.env.BENCH_DB;
  if (given) {
    const db = openDatabase(given, { readonly: true });
    await db.$client.backup(file);
    closeDatabase(db);
    closeDatabase(openDatabase(file));
    return file;
  }
  const folder = path.join(CORPUS_DIR, "aws-data-json-2021-12");
  if (!fs.existsSync(folder)) throw new Error(`bench: no corpus folder ${folder} (set REDLINE_CORPUS or BENCH_DB)`);
  const platform = getPlatform("aws-legacy");
  if (!platform) throw new Error("bench: no aws-legacy platform");
  const db = openDatabase(file);
  await importSnapshots(db, await ensureVendor(db, { slug: "aws", name: "AWS", platform: platform.name }), platform, listSnapshotFolder(folder).snapshots);
  closeDatabase(db);
  return file;
}

export async function runSearchBenchmark(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-search-"));
  try {
    const compressed = await archiveOf(dir);
    const plain = path.join(dir, "plain.db");
    fs.copyFileSync(compressed, plain);
    const plainDb = openDatabase(plain, { migrate: false });
    toPlainIndex(plainDb);
    const queries = queriesOf(plainDb);
    closeDatabase(plainDb);
    settle(plain);
    settle(compressed);
    await report("previous layout (FTS5 with its own copy of the text)", plain, queries);
    await report("compressed text (external content over incident_search_text)", compressed, queries);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
