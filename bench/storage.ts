/**
 * Storage benchmark: every history of the corpus imported by the real CLI (and one long history
 * through `import-git`), each beside its raw, gzip and git-pack bytes (the snapshots committed in
 * order, `git gc --aggressive`): what a git-scraping archive of the same snapshots weighs. Also the
 * bytes 1,000 unchanged polls add, restore and version-read times, and import and re-import times.
 * Goal: Redline at most the git pack on every history; it must be within 1.5x.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { bytesOnDisk, readStatsJson, runRedline } from "@/bench/redline-cli";
import { type History, type HistoryResult, measureHistory, totalRows } from "@/bench/storage-histories";
import { POLL_ENV, pollUnchanged, serveSameBody } from "@/bench/storage-polls";
import { listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { formatBytes } from "@/scrapers/cli/stats-command";
import { CORPUS_DIR, CORPUS_FOLDERS } from "@/tests/support/corpus-location";

const POLLS = Number(process.env.BENCH_STORAGE_POLLS ?? 1_000);
/** Two summary.json histories of one shape whose times do not overlap: one long git history of 600 commits. */
const LONG_HISTORY = ["statuspage-summary-trello-nonutc", "statuspage-summary-jira"];

function histories(): History[] {
  const folders = CORPUS_FOLDERS.map(({ folder, vendor, platform }): History => {
    const dir = path.join(CORPUS_DIR, folder);
    return { label: folder, vendor, platform, snapshots: listSnapshotFolder(dir).snapshots, folder: dir };
  });
  const long = LONG_HISTORY.flatMap((f) => listSnapshotFolder(path.join(CORPUS_DIR, f)).snapshots).sort((a, b) => a.observedAt.localeCompare(b.observedAt));
  folders.push({ label: `git: ${LONG_HISTORY.join(" + ")}`, vendor: "summary-long", platform: "statuspage-summary", snapshots: long, gitPath: "summary.json" });
  return folders;
}

function printTable(headers: readonly string[], rows: ReadonlyArray<readonly string[]>): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  console.log(line(headers));
  for (const r of rows) console.log(line(r));
}

const ms = (n: number) => n.toFixed(2);
const seconds = (wall: number, reported: number) => `${wall.toFixed(2)} (${reported.toFixed(1)})`;

function printHistories(results: readonly HistoryResult[], emptyBytes: number): void {
  printTable(
    ["history", "snapshots", "raw", "gzip", "git pack", "Redline", "checkpointed", "Redline/git", "goal <=1x", "must <=1.5x", "derived floor", "raw floor", "least", "least/git"],
    results.map((r) => {
      const ratio = r.redlineBytes / r.packBytes;
      const derived = r.derivedFloor.states + r.derivedFloor.versions;
      const least = emptyBytes + r.rawFloorBytes + derived;
      return [
        r.label, String(r.snapshots), formatBytes(r.rawBytes), formatBytes(r.gzipBytes), formatBytes(r.packBytes), formatBytes(r.redlineBytes),
        formatBytes(r.checkpointedBytes), `${ratio.toFixed(1)}x`, ratio <= 1 ? "met" : "NOT met", ratio <= 1.5 ? "met" : "NOT met",
        formatBytes(derived), formatBytes(r.rawFloorBytes), formatBytes(least), `${(least / r.packBytes).toFixed(2)}x`,
      ];
    }),
  );
  console.log("derived floor: each incident's record states and version changes as one text, compressed with the stored-JSON dictionary; no rows, indexes, raw layer or search (bench/derived-floor.ts)");
  console.log("raw floor: the distinct raw bodies as one zstd stream, level 19, 128 MB window, long-distance matching (bench/raw-floor.ts)");
  console.log("least: an empty database + raw floor + derived floor, the least a database that keeps raw bodies and each incident's history on its own could weigh, without captures or search");
  console.log("");
  printTable(
    ["history", "import s (own)", "re-import s (own)", "re-import adds", "restores", "p50 ms", "p99 ms", "versions", "p50 ms", "p99 ms"],
    results.map((r) => [
      r.label, seconds(r.importSeconds, r.importReportedSeconds), seconds(r.reimportSeconds, r.reimportReportedSeconds), formatBytes(r.reimportAddedBytes),
      String(r.restore.count), ms(r.restore.p50), ms(r.restore.p99), String(r.versionRead.count), ms(r.versionRead.p50), ms(r.versionRead.p99),
    ]),
  );
  console.log("import s: the command's wall time from `npm run redline`, and (in brackets) the time the import reports for itself");
  const met = results.filter((r) => r.redlineBytes <= r.packBytes).length;
  const within = results.filter((r) => r.redlineBytes <= 1.5 * r.packBytes).length;
  console.log(`goal Redline <= git pack: ${met === results.length ? "met" : "NOT met"} (${met} of ${results.length} histories)`);
  console.log(`must Redline <= 1.5x git pack: ${within === results.length ? "met" : "NOT met"} (${within} of ${results.length} histories)`);
}

/** One vendor whose endpoint never changes, polled POLLS times after its first poll: what each mode adds. */
async function measureUnchangedPolls(dir: string): Promise<void> {
  const [last] = listSnapshotFolder(path.join(CORPUS_DIR, "statuspage-summary-github-2025")).snapshots.slice(-1);
  if (!last) throw new Error("bench: no GitHub summary.json snapshot");
  const server = await serveSameBody(Buffer.from(last.read()));
  const rows: string[][] = [];
  try {
    for (const mode of ["etag", "plain"] as const) {
      const dbFile = path.join(dir, `polls-${mode}.db`);
      const url = `${server.base}/${mode}/api/v2/summary.json`;
      await runRedline(["vendors", "add", "--slug", "unchanged", "--name", "Unchanged", "--platform", "statuspage-summary", "--url", url, "--db", dbFile], POLL_ENV);
      await runRedline(["poll", "--once", "--quiet", "--vendor", "unchanged", "--db", dbFile], POLL_ENV);
      const before = await totalRows(dbFile);
      const result = await pollUnchanged(dbFile, "unchanged", POLLS);
      const after = await totalRows(dbFile);
      const grew = [...after.byTable].filter(([t, n]) => n !== (before.byTable.get(t) ?? 0)).map(([t, n]) => `${t} +${n - (before.byTable.get(t) ?? 0)}`);
      rows.push([
        mode === "etag" ? "ETag, answered 304" : "no validators, same 200 body", String(result.polls), formatBytes(result.bytesBefore),
        formatBytes(result.bytesAfter), String(result.bytesAfter - result.bytesBefore), ((result.bytesAfter - result.bytesBefore) / result.polls).toFixed(0), String(after.rows - before.rows), grew.join(", ") || "none",
        (result.polls / result.seconds).toFixed(0),
      ]);
    }
  } finally {
    await server.close();
  }
  printTable(["endpoint", "polls", "db before", "db after", "bytes added", "bytes/poll", "rows added", "rows added by table", "polls/s"], rows);
  console.log(`goal: ${POLLS} unchanged polls add nothing beyond one run row`);
}

export async function runStorageBenchmark(): Promise<void> {
  if (!fs.existsSync(CORPUS_DIR)) throw new Error(`bench: no corpus at ${CORPUS_DIR} (set REDLINE_CORPUS)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-storage-bench-"));
  try {
    console.log(`corpus: ${CORPUS_DIR}`);
    const empty = path.join(dir, "empty.db");
    await runRedline(["migrate", "--db", empty]);
    const emptyBytes = bytesOnDisk(empty);
    console.log(`an empty database (every table and index, no rows): ${formatBytes(emptyBytes)}`);
    const results: HistoryResult[] = [];
    for (const [i, history] of histories().entries()) {
      console.error(`bench: ${history.label} …`);
      results.push(await measureHistory(history, path.join(dir, `h${i}`)));
    }
    console.log("");
    printHistories(results, emptyBytes);
    const longest = results.at(-1);
    if (longest) {
      console.log("");
      console.log(`redline stats of ${longest.label}:`);
      process.stdout.write((await runRedline(["stats", "--db", longest.dbFile])).stdout);
      const stats = await readStatsJson(longest.dbFile);
      console.log(`database / raw bytes recorded: ${stats.ratio.toFixed(3)}x`);
    }
    console.log("");
    await measureUnchangedPolls(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
