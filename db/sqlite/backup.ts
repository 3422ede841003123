import Database from "better-sqlite3";
import type { ArchiveFile } from "@/db/driver/database";

/** Copy everything in one backup step: a single read snapshot, which a writer elsewhere cannot restart. */
const ALL_PAGES = 0x7fffffff;

/**
 * A SQLite archive file for SQLite's online backup, which reads one snapshot (WAL readers never
 * block the poller's writes, nor wait for them) and writes its target under the target's own locks.
 */
export function openSqliteArchiveFile(file: string): ArchiveFile {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    async copyTo(target) {
      const result = await db.backup(target, { progress: () => ALL_PAGES });
      return result.totalPages;
    },
    integrity: () => String(db.pragma("integrity_check", { simple: true })),
    isRedline: () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('incident_versions', '__drizzle_migrations')").all().length >= 2,
    countVersions: () => (db.prepare("SELECT count(*) AS n FROM incident_versions").get() as { n: number }).n,
    close: () => db.close(),
  };
}
