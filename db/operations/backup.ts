import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { closeDatabase, DatabaseError, isDatabaseUrl, openDatabase, redact } from "@/db/client";

/** Copy everything in one backup step: a single read snapshot, which a writer elsewhere cannot restart. */
const ALL_PAGES = 0x7fffffff;

export interface BackupSummary {
  file: string;
  bytes: number;
  pages: number;
  versions: number;
}

function countVersions(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM incident_versions").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** A file backup is SQLite's: a PostgreSQL archive is backed up with its own tools. */
function refusePostgres(what: "backup" | "restore", location: string): void {
  if (isDatabaseUrl(location)) {
    throw new DatabaseError(`${what}: ${redact(location)} is a PostgreSQL database: back it up with pg_dump and restore it with pg_restore`);
  }
}

/** Copy `from` to `to` with SQLite's online backup; `to` must not exist. */
async function copyWithBackupApi(from: Database.Database, to: string): Promise<number> {
  const result = await from.backup(to, { progress: () => ALL_PAGES });
  return result.totalPages;
}

/**
 * A consistent copy of the database while Redline keeps running: SQLite's online backup reads one
 * snapshot (WAL readers never block the poller's writes, nor wait for them) into a new file.
 */
export async function backupDatabase(dbFile: string, target: string): Promise<BackupSummary> {
  refusePostgres("backup", dbFile);
  if (!fs.existsSync(dbFile)) throw new DatabaseError(`backup: no database at ${dbFile}`);
  if (fs.existsSync(target)) throw new DatabaseError(`backup: ${target} exists; name a new file`);
  if (!fs.existsSync(path.dirname(path.resolve(target)))) throw new DatabaseError(`backup: no folder ${path.dirname(path.resolve(target))}`);
  const source = new Database(dbFile, { readonly: true, fileMustExist: true });
  const partial = `${target}.partial`;
  try {
    fs.rmSync(partial, { force: true });
    const pages = await copyWithBackupApi(source, partial);
    // Only a finished copy gets the name asked for.
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, pages, versions: countVersions(target) };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error instanceof DatabaseError ? error : new DatabaseError(`backup: ${(error as Error).message}`, { cause: error });
  } finally {
    source.close();
  }
}

/** A backup is restored only if SQLite finds it intact and it is a Redline database. */
function checkBackup(file: string): void {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new DatabaseError(`restore: cannot open ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const check = db.pragma("integrity_check", { simple: true });
    if (check !== "ok") throw new DatabaseError(`restore: ${file} is damaged (integrity_check: ${String(check)})`);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('incident_versions', '__drizzle_migrations')").all();
    if (tables.length < 2) throw new DatabaseError(`restore: ${file} is not a Redline database`);
  } catch (error) {
    throw error instanceof DatabaseError ? error : new DatabaseError(`restore: ${file}: ${(error as Error).message}`, { cause: error });
  } finally {
    db.close();
  }
}

export interface RestoreSummary {
  /** Where the database as it was before the restore was kept, or null when there was none. */
  previous: string | null;
  versions: number;
}

/**
 * Replace the database with a backup, through SQLite's backup API (so the writes take SQLite's
 * locks), after keeping the current database beside it: a mistaken restore loses nothing.
 * Stop the poller first: what it records during the restore is overwritten.
 */
export async function restoreDatabase(backupFile: string, dbFile: string, now = new Date()): Promise<RestoreSummary> {
  refusePostgres("restore", dbFile);
  checkBackup(backupFile);
  let previous: string | null = null;
  if (fs.existsSync(dbFile)) {
    previous = `${dbFile}.before-restore-${now.toISOString().replace(/[:.]/g, "-")}`;
    await backupDatabase(dbFile, previous);
  }
  const source = new Database(backupFile, { readonly: true, fileMustExist: true });
  try {
    // Into the existing file by name: SQLite writes the pages under its own write lock.
    await source.backup(dbFile, { progress: () => ALL_PAGES });
  } catch (error) {
    throw new DatabaseError(`restore: ${(error as Error).message}`, { cause: error });
  } finally {
    source.close();
  }
  // A backup from an older Redline is brought up to this one's schema.
  closeDatabase(openDatabase(dbFile));
  return { previous, versions: countVersions(dbFile) };
}
