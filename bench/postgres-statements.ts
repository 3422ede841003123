/**
 * PostgreSQL's round trips per imported snapshot: a throwaway cluster logging every statement
 * (`log_statement=all`, stderr to a file), a migrated database, then 600 real snapshots of two
 * vendors imported as `redline import` does (a store opened per vendor, the vendor looked up or
 * created, importSnapshots). The statements the server logged from the first store's opening to the
 * last one's closing are counted, by snapshot (the log's size when it is read and when it is
 * done), by shape, and for each vendor's first capture. Goal: at most 10 per snapshot.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { benchDialects } from "@/bench/bench-databases";
import { countShapes, type LoggedStatement, readStatementLog, type ShapeCount } from "@/bench/statement-log";
import { closeStore, openStore } from "@/db/client";
import { ensureVendor, getVendorBySlug } from "@/db/settings/vendors";
import { requirePlatform } from "@/scrapers/cli/cli-context";
import { type ImportSummary, importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { CORPUS_DIR, CORPUS_FOLDERS, corpusAvailable } from "@/tests/support/corpus-location";
import { startPostgresCluster } from "@/tests/support/postgres-cluster";

/** A Statuspage summary.json series and a history.atom series, the first 300 captures of each. */
/** The corpus folders imported, each as a vendor of its own; BENCH_STATEMENTS_FOLDERS="folder:count,…" picks others. */
const SELECTION = process.env.BENCH_STATEMENTS_FOLDERS
  ? process.env.BENCH_STATEMENTS_FOLDERS.split(",").map((entry) => {
    const [folder = "", take = "300"] = entry.split(":");
    return { folder, take: Number(take) };
  })
  : [
    { folder: "statuspage-summary-github-2025", take: 300 },
    { folder: "atom-github-history", take: 300 },
  ];
const GOAL_PER_SNAPSHOT = 10;
/** BENCH_STATEMENTS_SHAPES=N lists more shapes (every one with a large N). */
const TOP_SHAPES = Number(process.env.BENCH_STATEMENTS_SHAPES ?? 15);
const FIRST_CAPTURE_SHAPES = 8;
const SHAPE_WIDTH = 160;
const SHAPE_TAIL = 60;
/** Parameters stay out of the log: statements are counted, not their values. */
const LOGGING = { log_statement: "all", log_parameter_max_length: "0" };
const MARKER = "redline-bench: statements are logged";

/** Byte offsets of the server log bounding a stretch of work. */
interface Stretch {
  from: number;
  to: number;
}

interface VendorImport {
  slug: string;
  folder: string;
  summary: ImportSummary;
  whole: Stretch;
  snapshots: Stretch[];
}

function logSize(file: string): number {
  return fs.statSync(file).size;
}

function within(statements: readonly LoggedStatement[], { from, to }: Stretch): LoggedStatement[] {
  return statements.filter((s) => s.offset >= from && s.offset < to);
}

/** Fails unless a statement this process sends shows up in the log at once, in the format read. */
async function checkLogged(url: string, logFile: string): Promise<void> {
  const from = logSize(logFile);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SELECT '${MARKER}'`);
  } finally {
    await client.end();
  }
  const { statements } = readStatementLog(logFile, from, logSize(logFile));
  if (!statements.some((s) => s.sql.includes(MARKER))) {
    throw new Error(`bench: ${logFile} does not show the statements the server runs (log_statement=all and log_line_prefix '%m [%p] ' expected)`);
  }
}

/** One `redline import <folder> --vendor <slug>`: the command's own steps, with the log's size around each snapshot. */
async function importVendor(url: string, logFile: string, folder: string, take: number): Promise<VendorImport> {
  const entry = CORPUS_FOLDERS.find((f) => f.folder === folder);
  if (!entry) throw new Error(`bench: ${folder} is not a corpus folder (tests/support/corpus-location.ts)`);
  const listed = listSnapshotFolder(path.join(CORPUS_DIR, folder)).snapshots;
  if (listed.length < take) throw new Error(`bench: ${folder} holds ${listed.length} snapshots, the selection takes ${take}`);
  const platform = requirePlatform(entry.platform);
  const snapshots: Stretch[] = [];
  let readAt = 0;
  const observed = listed.slice(0, take).map((s) => ({
    ...s,
    read: () => {
      readAt = logSize(logFile);
      return s.read();
    },
  }));
  const from = logSize(logFile);
  const db = await openStore(url);
  let summary: ImportSummary;
  try {
    const vendor = (await getVendorBySlug(db, entry.vendor)) ?? (await ensureVendor(db, { slug: entry.vendor, platform: platform.name }));
    summary = await importSnapshots(db, vendor, platform, observed, () => snapshots.push({ from: readAt, to: logSize(logFile) }));
  } finally {
    await closeStore(db);
  }
  return { slug: entry.vendor, folder, summary, whole: { from, to: logSize(logFile) }, snapshots };
}

const count = (n: number) => n.toLocaleString("en-US");
const perSnapshot = (n: number, snapshots: number) => (n / snapshots).toFixed(2);
/** Long shapes keep their start (the table) and their end (what tells them apart: the WHERE clause). */
const clip = (shape: string) => (shape.length > SHAPE_WIDTH ? `${shape.slice(0, SHAPE_WIDTH - SHAPE_TAIL - 3)} … ${shape.slice(-SHAPE_TAIL)}` : shape);

function printShapes(shapes: readonly ShapeCount[], snapshots: number, indent = "  "): void {
  console.log(`${indent}  count  /snapshot  shape`);
  for (const { shape, count: n } of shapes) console.log(`${indent}${count(n).padStart(7)} ${perSnapshot(n, snapshots).padStart(10)}  ${clip(shape)}`);
}

function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

function printReport(imports: readonly VendorImport[], statements: readonly LoggedStatement[], errors: readonly string[]): void {
  const total = imports.reduce((n, v) => n + v.snapshots.length, 0);
  console.log(`corpus: ${CORPUS_DIR}`);
  console.log("vendor        folder                          snapshots  versions  statements  /snapshot  first capture  before first  after last");
  for (const v of imports) {
    const all = within(statements, v.whole).length;
    const [first, last] = [v.snapshots[0], v.snapshots.at(-1)];
    const before = first ? within(statements, { from: v.whole.from, to: first.from }).length : 0;
    const after = last ? within(statements, { from: last.to, to: v.whole.to }).length : 0;
    const firstCapture = first ? within(statements, first).length : 0;
    console.log(
      `${v.slug.padEnd(13)} ${v.folder.padEnd(31)} ${String(v.snapshots.length).padStart(9)} ${String(v.summary.versions).padStart(9)} ` +
        `${count(all).padStart(11)} ${perSnapshot(all, v.snapshots.length).padStart(10)} ${String(firstCapture).padStart(14)} ${String(before).padStart(13)} ${String(after).padStart(11)}`,
    );
  }
  const perSnap = (statements.length / total).toFixed(1);
  console.log(`all: ${total} snapshots, ${count(statements.length)} statements, ${perSnap} per snapshot`);
  console.log(`goal <= ${GOAL_PER_SNAPSHOT} statements per snapshot: ${statements.length <= GOAL_PER_SNAPSHOT * total ? "met" : "NOT met"} (${perSnap})`);

  const each = imports.flatMap((v) => v.snapshots.map((s) => within(statements, s).length)).sort((a, b) => a - b);
  const common = [...each.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map<number, number>())].sort((a, b) => b[1] - a[1]).slice(0, 5);
  console.log(
    `one snapshot (from reading it to its progress): min ${each[0] ?? 0}, median ${quantile(each, 0.5)}, p90 ${quantile(each, 0.9)}, max ${each.at(-1) ?? 0}; ` +
      `most often ${common.map(([n, times]) => `${n} (${times} snapshots)`).join(", ")}`,
  );

  const shapes = countShapes(statements);
  const starting = (word: string) => shapes.filter((s) => s.shape.toUpperCase().startsWith(word)).reduce((n, s) => n + s.count, 0);
  const simple = statements.filter((s) => s.protocol === "statement").length;
  console.log(
    `transactions: BEGIN ${count(starting("BEGIN"))}, COMMIT ${count(starting("COMMIT"))}, ROLLBACK ${count(starting("ROLLBACK"))}, ` +
      `SAVEPOINT ${count(starting("SAVEPOINT"))}, RELEASE ${count(starting("RELEASE"))} (${perSnapshot(starting("BEGIN"), total)} BEGIN per snapshot)`,
  );
  console.log(`protocol: ${count(simple)} simple queries, ${count(statements.length - simple)} extended (execute); ${shapes.length} distinct shapes; ${errors.length} errors`);
  for (const e of errors.slice(0, 3)) console.log(`  error: ${clip(e.replace(/\s+/g, " "))}`);
  console.log(`top ${TOP_SHAPES} statement shapes, all ${total} snapshots:`);
  printShapes(shapes.slice(0, TOP_SHAPES), total);
  const rest = shapes.slice(TOP_SHAPES).reduce((n, s) => n + s.count, 0);
  console.log(`  the other ${Math.max(0, shapes.length - TOP_SHAPES)} shapes: ${count(rest)} statements, ${perSnapshot(rest, total)} per snapshot`);
  for (const v of imports) {
    const first = v.snapshots[0];
    if (!first) continue;
    const firstStatements = within(statements, first);
    console.log(`first capture of ${v.slug} (${firstStatements.length} statements), top ${FIRST_CAPTURE_SHAPES} shapes:`);
    printShapes(countShapes(firstStatements).slice(0, FIRST_CAPTURE_SHAPES), 1);
  }
}

export async function runPostgresStatementsBenchmark(): Promise<void> {
  if (!corpusAvailable) {
    console.log(`skipped: no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS to the shared corpus of real snapshots)`);
    return;
  }
  if (!benchDialects().includes("postgres")) {
    console.log("skipped: this benchmark counts PostgreSQL's statements, and PostgreSQL is not part of this run");
    return;
  }
  const cluster = await startPostgresCluster({ settings: LOGGING });
  try {
    const url = await cluster.createDatabase("redline_bench");
    const logFile = path.join(cluster.folder, "server.log");
    await closeStore(await openStore(url));
    await checkLogged(url, logFile);
    const imports: VendorImport[] = [];
    for (const { folder, take } of SELECTION) imports.push(await importVendor(url, logFile, folder, take));
    const first = imports[0];
    const last = imports.at(-1);
    if (!first || !last) return;
    const { statements, errors } = readStatementLog(logFile, first.whole.from, last.whole.to);
    printReport(imports, statements, errors);
  } finally {
    await cluster.stop();
  }
}
