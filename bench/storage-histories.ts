/**
 * One history of the storage benchmark: its snapshots' raw, gzip and git-pack bytes, then what
 * Redline keeps of it (the real CLI importing it into a fresh database, and again), and how fast a
 * capture is restored and a version read back from that database.
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { type DerivedFloor, derivedFloor } from "@/bench/derived-floor";
import { rawFloorBytes } from "@/bench/raw-floor";
import { bytesOnDisk, readStatsJson, reportedImportSeconds, runRedline } from "@/bench/redline-cli";
import { aggressivePackBytes, commitSnapshots } from "@/bench/snapshot-repo";
import { listStoredCaptureIds, restoreCapture } from "@/db/history/capture-restore";
import { closeDatabase, openDatabase } from "@/db/client";
import { getVersionDetail, listVersionRefs } from "@/db/queries/incident-page";
import { getVendorBySlug } from "@/db/settings/vendors";
import type { SnapshotSource } from "@/scrapers/ingest/import-snapshots";

export interface History {
  label: string;
  vendor: string;
  platform: string;
  snapshots: readonly SnapshotSource[];
  /** Imported with `import` from this folder; else committed to a repository and imported with `import-git`. */
  folder?: string;
  /** The file's path in the repository, for `import-git`. */
  gitPath?: string;
}

export interface Timing {
  count: number;
  p50: number;
  p99: number;
}

export interface HistoryResult {
  label: string;
  snapshots: number;
  rawBytes: number;
  gzipBytes: number;
  packBytes: number;
  /** db + -wal + -shm once the import command has exited. */
  redlineBytes: number;
  /** The same after `PRAGMA wal_checkpoint(TRUNCATE)`. */
  checkpointedBytes: number;
  /** The derived history's floor for any per-incident layout (bench/derived-floor.ts). */
  derivedFloor: DerivedFloor;
  /** The raw bodies' floor for any layout (bench/raw-floor.ts). */
  rawFloorBytes: number;
  importSeconds: number;
  importReportedSeconds: number;
  reimportSeconds: number;
  reimportReportedSeconds: number;
  reimportAddedBytes: number;
  restore: Timing;
  versionRead: Timing;
  dbFile: string;
}

/** Nearest-rank percentiles of a list of milliseconds. */
function percentiles(ms: readonly number[]): { p50: number; p99: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

async function timeEach<T>(items: readonly T[], run: (item: T) => unknown): Promise<Timing> {
  const ms: number[] = [];
  for (const item of items) {
    const started = performance.now();
    await run(item);
    ms.push(performance.now() - started);
  }
  return { count: ms.length, ...percentiles(ms) };
}

/** Restores every kept capture and reads every version, each through the store's own function. */
async function timeReads(dbFile: string, slug: string): Promise<{ restore: Timing; versionRead: Timing }> {
  const db = openDatabase(dbFile);
  try {
    const vendor = await getVendorBySlug(db, slug);
    if (!vendor) throw new Error(`bench: no vendor ${slug} in ${dbFile}`);
    const restore = await timeEach(await listStoredCaptureIds(db, vendor.id), (id) => restoreCapture(db, id));
    const versionRead = await timeEach(await listVersionRefs(db, vendor.id), async ({ incidentId, seq }) => {
      if (!(await getVersionDetail(db, incidentId, seq))) throw new Error(`bench: version ${seq} of incident ${incidentId} is missing`);
    });
    return { restore, versionRead };
  } finally {
    closeDatabase(db);
  }
}

function checkpointedBytes(dbFile: string): number {
  const db = openDatabase(dbFile);
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  closeDatabase(db);
  return bytesOnDisk(dbFile);
}

export async function measureHistory(history: History, dir: string): Promise<HistoryResult> {
  fs.mkdirSync(dir, { recursive: true });
  const bodies = history.snapshots.map((s) => s.read());
  const rawBytes = bodies.reduce((n, b) => n + b.byteLength, 0);
  const gzipBytes = bodies.reduce((n, b) => n + gzipSync(b).byteLength, 0);
  const repoDir = path.join(dir, "repo");
  const gitPath = history.gitPath;
  commitSnapshots(repoDir, history.snapshots.map((s) => ({ observedAt: s.observedAt, name: gitPath ?? s.source, read: s.read })));
  const packBytes = aggressivePackBytes(repoDir);

  const dbFile = path.join(dir, "redline.db");
  const what = history.folder !== undefined ? ["import", history.folder] : ["import-git", repoDir, gitPath ?? ""];
  const args = [...what, "--vendor", history.vendor, "--platform", history.platform, "--db", dbFile];
  const first = await runRedline(args);
  const redlineBytes = bytesOnDisk(dbFile);
  const checkpointed = checkpointedBytes(dbFile);
  const second = await runRedline(args);
  const reimportAddedBytes = bytesOnDisk(dbFile) - checkpointed;
  return {
    label: history.label,
    snapshots: history.snapshots.length,
    rawBytes,
    gzipBytes,
    packBytes,
    rawFloorBytes: rawFloorBytes(bodies),
    redlineBytes,
    checkpointedBytes: checkpointed,
    importSeconds: first.ms / 1000,
    importReportedSeconds: reportedImportSeconds(first.stdout),
    reimportSeconds: second.ms / 1000,
    reimportReportedSeconds: reportedImportSeconds(second.stdout),
    reimportAddedBytes,
    ...(await timeReads(dbFile, history.vendor)),
    derivedFloor: await derivedFloor(dbFile),
    dbFile,
  };
}

/** The rows of every table, summed: what `stats` counts. */
export async function totalRows(dbFile: string): Promise<{ rows: number; byTable: Map<string, number> }> {
  const stats = await readStatsJson(dbFile);
  return { rows: stats.tables.reduce((n, t) => n + t.rows, 0), byTable: new Map(stats.tables.map((t) => [t.name, t.rows])) };
}
