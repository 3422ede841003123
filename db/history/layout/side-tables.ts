import type Database from "better-sqlite3";

/**
 * Whether the file keeps version_kinds as before migration 0019 (kind names, times as text, four
 * b-trees). That migration rebuilds the side tables in SQL, in the one transaction that applies the
 * migrations: a crash leaves the previous layout whole, and the next migrate starts it again.
 */
export function sideTablesPending(sqlite: Database.Database): boolean {
  return sqlite.prepare("SELECT 1 FROM pragma_table_info('version_kinds') WHERE name = 'observed_at'").get() !== undefined;
}
