import type { OperationsDialect } from "@/db/driver/database";
import { openSqliteArchiveFile } from "@/db/sqlite/backup";
import { sqliteCopy } from "@/db/sqlite/copy";
import { sqliteMigrationCounter } from "@/db/sqlite/readiness";

/** SQLite's side of OperationsDialect. */
export const sqliteOperations: OperationsDialect = {
  typed: (value) => value,
  greatest: (left, right) => `max(${left}, ${right})`,
  isTrue: (column) => `${column} = 1`,
  isDistinctFrom: "IS NOT",
  listedIds: (name) => `SELECT value FROM json_each(@${name})`,
  // One writer at a time: a claim holds the write lock instead.
  skipLocked: () => "",
  claimsTakeWriteLock: true,
  capturesByIdentity: " INDEXED BY captures_identity",
  requestPoll: "INSERT INTO poll_state (vendor_id, next_poll_at) VALUES (?, ?) ON CONFLICT (vendor_id) DO UPDATE SET next_poll_at = min(next_poll_at, excluded.next_poll_at)",
  addThrottled: `INSERT INTO throttle_telemetry (scope, throttled, last_throttled_at) VALUES (?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET throttled = throttled + excluded.throttled, last_throttled_at = max(coalesce(last_throttled_at, ''), excluded.last_throttled_at)`,
  schedulePolls: `INSERT INTO poll_state (vendor_id, next_poll_at)
     SELECT id, ? FROM vendors WHERE enabled = 1 AND url IS NOT NULL AND id NOT IN (SELECT vendor_id FROM poll_state)`,
  copy: sqliteCopy,
  migrationCounter: sqliteMigrationCounter,
  fileBackup: openSqliteArchiveFile,
};
