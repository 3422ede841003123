import fs from "node:fs";
import { isDatabaseUrl, redact } from "@/db/client";
import { readStorageStats, type RowsAndBytes, type StorageStats, VENDOR_PARTS, type VendorPart } from "@/db/queries/storage-stats";
import { resolveDbPath, withDatabase } from "@/scrapers/cli/cli-context";

const PART_LABELS: Record<VendorPart, string> = {
  captures: "captures",
  rawBodies: "raw bodies",
  incidents: "incidents",
  versions: "versions",
  states: "states",
};

export function formatBytes(bytes: number): string {
  if (bytes < 1e3) return `${bytes} B`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} KB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/** A SQLite database's files as they are on disk before this command opens them. */
interface SqliteFiles {
  db: number;
  wal: number;
  shm: number;
}

/** A PostgreSQL database's own files (pg_database_size): its catalogs too, and no WAL, which the cluster shares. */
interface PostgresFiles {
  database: number;
}

type OnDisk = SqliteFiles | PostgresFiles;

function filesOnDisk(file: string): SqliteFiles {
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  return { db: size(file), wal: size(`${file}-wal`), shm: size(`${file}-shm`) };
}

/** How the first lines and the totals of the table name what the database's bytes are. */
function describeDisk(location: string, disk: OnDisk, s: StorageStats): { header: string[]; free: string; other: string; all: string } {
  if ("database" in disk) {
    const tables = s.databaseBytes - s.freeBytes;
    return {
      header: [
        `database ${location}: ${formatBytes(disk.database)} on disk (pg_database_size)`,
        `archive tables with their indexes: ${formatBytes(tables)} (${s.pageSize}-byte pages); catalogs and free space: ${formatBytes(s.freeBytes)}`,
      ],
      free: "catalogs and free space",
      // Relation sizes are read one after another, not in the snapshot: a table can grow between them.
      other: "grown while measured",
      all: "all pages",
    };
  }
  return {
    header: [
      `database ${location}: ${formatBytes(disk.db + disk.wal + disk.shm)} on disk (file ${formatBytes(disk.db)}, -wal ${formatBytes(disk.wal)}, -shm ${formatBytes(disk.shm)})`,
      `pages: ${formatBytes(s.databaseBytes)} (${s.pageSize}-byte pages), of which free ${formatBytes(s.freeBytes)}`,
    ],
    free: "free pages",
    other: "other pages (lock page)",
    all: "all pages",
  };
}

function row(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ").trimEnd();
}

function rowsAndBytes(p: RowsAndBytes): string {
  return `${p.rows} / ${formatBytes(p.bytes)}`;
}

function renderStats(location: string, disk: OnDisk, s: StorageStats): string {
  const described = describeDisk(location, disk, s);
  const lines: string[] = [...described.header];
  lines.push(`raw bytes recorded (every capture's size): ${formatBytes(s.rawBytes)}; database / raw: ${s.rawBytes > 0 ? `${s.ratio.toFixed(3)}x` : "nothing recorded"}`);
  if (s.prunedRaw.captures > 0) {
    lines.push(`of which no longer kept (raw bodies deleted by retention): ${s.prunedRaw.captures} captures, ${formatBytes(s.prunedRaw.bytes)} as given`);
  }
  lines.push("");
  const tw = [26, 10, 12, 12, 12];
  lines.push(row(["table (with its indexes)", "rows", "table", "indexes", "total"], tw));
  for (const t of s.tables) {
    lines.push(row([t.name, String(t.rows), formatBytes(t.tableBytes), formatBytes(t.indexBytes), formatBytes(t.tableBytes + t.indexBytes)], tw));
  }
  const counted = s.tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0);
  lines.push(row([described.free, "", "", "", formatBytes(s.freeBytes)], tw));
  const other = s.databaseBytes - counted - s.freeBytes;
  if (other !== 0) lines.push(row([described.other, "", "", "", formatBytes(other)], tw));
  lines.push(row([described.all, "", "", "", formatBytes(s.databaseBytes)], tw));
  lines.push("");
  lines.push("per vendor: rows / stored bytes of each (column lengths, without indexes); ≈ on disk is its share of those tables");
  const vw = [24, 10, 10, 7, ...VENDOR_PARTS.map(() => 20)];
  lines.push(row(["vendor", "raw", "≈ on disk", "x raw", ...VENDOR_PARTS.map((p) => PART_LABELS[p])], vw));
  for (const v of s.vendors) {
    const ratio = v.rawBytes > 0 ? (v.approxDiskBytes / v.rawBytes).toFixed(2) : "-";
    lines.push(row([v.slug, formatBytes(v.rawBytes), formatBytes(v.approxDiskBytes), ratio, ...VENDOR_PARTS.map((p) => rowsAndBytes(v.parts[p]))], vw));
  }
  if (s.unreferencedBodies.rows > 0) {
    lines.push(`raw bodies no capture refers to: ${rowsAndBytes(s.unreferencedBodies)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `redline stats`: where the database's bytes are, per table and per vendor, against the raw bytes recorded. */
export async function runStats(opts: { db?: string; json?: boolean }): Promise<void> {
  const location = resolveDbPath(opts);
  // A SQLite file is measured before this command opens it and leaves its own -wal and -shm beside it.
  const files = isDatabaseUrl(location) ? undefined : filesOnDisk(location);
  const stats = await withDatabase("stats", opts, (db) => readStorageStats(db));
  // readStorageStats measures a PostgreSQL database as pg_database_size, in the snapshot of its other figures.
  const disk: OnDisk = files ?? { database: stats.databaseBytes };
  const shown = files ? location : redact(location);
  const where = files ? { file: shown } : { url: shown };
  process.stdout.write(opts.json ? `${JSON.stringify({ ...where, onDisk: disk, ...stats }, null, 2)}\n` : renderStats(shown, disk, stats));
}
