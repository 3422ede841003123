import fs from "node:fs";
import path from "node:path";
import { closeDatabase, DatabaseError, isDatabaseUrl, openDatabase, redact } from "@/db/client";
import type { ArchiveFile } from "@/db/driver/database";
import { postgresOperations } from "@/db/postgres/operations";
import { sqliteOperations } from "@/db/sqlite/operations";

export interface BackupSummary {
  file: string;
  bytes: number;
  pages: number;
  versions: number;
}

/**
 * How the archive at `location` is opened for a file backup. Which database a location names is
 * db/client's to say; one whose own tools back it up (a server's) is refused, saying which.
 */
function archiveFiles(what: "backup" | "restore", location: string): (file: string) => ArchiveFile {
  const open = (isDatabaseUrl(location) ? postgresOperations : sqliteOperations).fileBackup;
  if (typeof open === "string") throw new DatabaseError(`${what}: ${redact(location)} is ${open}`);
  return open;
}

function countVersions(open: (file: string) => ArchiveFile, file: string): number {
  const archive = open(file);
  try {
    return archive.countVersions();
  } finally {
    archive.close();
  }
}

/** A consistent copy of the database while Redline keeps running: one snapshot, read while writers go on, into a new file. */
export async function backupDatabase(dbFile: string, target: string): Promise<BackupSummary> {
  const open = archiveFiles("backup", dbFile);
  if (!fs.existsSync(dbFile)) throw new DatabaseError(`backup: no database at ${dbFile}`);
  if (fs.existsSync(target)) throw new DatabaseError(`backup: ${target} exists; name a new file`);
  if (!fs.existsSync(path.dirname(path.resolve(target)))) throw new DatabaseError(`backup: no folder ${path.dirname(path.resolve(target))}`);
  const source = open(dbFile);
  const partial = `${target}.partial`;
  try {
    fs.rmSync(partial, { force: true });
    const pages = await source.copyTo(partial);
    // Only a finished copy gets the name asked for.
    fs.renameSync(partial, target);
    return { file: target, bytes: fs.statSync(target).size, pages, versions: countVersions(open, target) };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error instanceof DatabaseError ? error : new DatabaseError(`backup: ${(error as Error).message}`, { cause: error });
  } finally {
    source.close();
  }
}

/** A backup is restored only if the database finds it intact and it is a Redline database. */
function checkBackup(open: (file: string) => ArchiveFile, file: string): void {
  let archive: ArchiveFile;
  try {
    archive = open(file);
  } catch (error) {
    throw new DatabaseError(`restore: cannot open ${file}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const check = archive.integrity();
    if (check !== "ok") throw new DatabaseError(`restore: ${file} is damaged (integrity_check: ${check})`);
    if (!archive.isRedline()) throw new DatabaseError(`restore: ${file} is not a Redline database`);
  } catch (error) {
    throw error instanceof DatabaseError ? error : new DatabaseError(`restore: ${file}: ${(error as Error).message}`, { cause: error });
  } finally {
    archive.close();
  }
}

export interface RestoreSummary {
  /** Where the database as it was before the restore was kept, or null when there was none. */
  previous: string | null;
  versions: number;
}

/**
 * Replace the database with a backup, through the database's backup API (so the writes take its
 * locks), after keeping the current database beside it: a mistaken restore loses nothing.
 * Stop the poller first: what it records during the restore is overwritten.
 */
export async function restoreDatabase(backupFile: string, dbFile: string, now = new Date()): Promise<RestoreSummary> {
  const open = archiveFiles("restore", dbFile);
  checkBackup(open, backupFile);
  let previous: string | null = null;
  if (fs.existsSync(dbFile)) {
    previous = `${dbFile}.before-restore-${now.toISOString().replace(/[:.]/g, "-")}`;
    await backupDatabase(dbFile, previous);
  }
  const source = open(backupFile);
  try {
    // Into the existing file by name: the pages are written under its own write lock.
    await source.copyTo(dbFile);
  } catch (error) {
    throw new DatabaseError(`restore: ${(error as Error).message}`, { cause: error });
  } finally {
    source.close();
  }
  // A backup from an older Redline is brought up to this one's schema.
  closeDatabase(openDatabase(dbFile));
  return { previous, versions: countVersions(open, dbFile) };
}
