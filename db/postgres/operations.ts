import type { OperationsDialect } from "@/db/driver/database";
import { postgresCopy } from "@/db/postgres/copy";
import { postgresMigrationCounter } from "@/db/postgres/readiness";

/** PostgreSQL's side of OperationsDialect. */
export const postgresOperations: OperationsDialect = {
  typed: (value, type) => `${value}::${type}`,
  greatest: (left, right) => `greatest(${left}, ${right})`,
  isTrue: (column) => column,
  isDistinctFrom: "IS DISTINCT FROM",
  listedIds: (name) => `SELECT value::bigint FROM jsonb_array_elements_text(@${name}::jsonb)`,
  skipLocked: (table) => ` FOR UPDATE${table === undefined ? "" : ` OF ${table}`} SKIP LOCKED`,
  claimsTakeWriteLock: false,
  capturesByIdentity: "",
  requestPoll: "INSERT INTO poll_state (vendor_id, next_poll_at) VALUES (?, ?) ON CONFLICT (vendor_id) DO UPDATE SET next_poll_at = least(poll_state.next_poll_at, excluded.next_poll_at)",
  addThrottled: `INSERT INTO throttle_telemetry (scope, throttled, last_throttled_at) VALUES (?, ?, ?)
     ON CONFLICT (scope) DO UPDATE SET throttled = throttle_telemetry.throttled + excluded.throttled,
       last_throttled_at = greatest(coalesce(throttle_telemetry.last_throttled_at, ''), excluded.last_throttled_at)`,
  // Another claimer may add the same rows meanwhile; in id order, so two such inserts never wait on each other in a cycle.
  schedulePolls: `INSERT INTO poll_state (vendor_id, next_poll_at)
     SELECT id, ?::text FROM vendors WHERE enabled AND url IS NOT NULL AND id NOT IN (SELECT vendor_id FROM poll_state) ORDER BY id
     ON CONFLICT (vendor_id) DO NOTHING`,
  copy: postgresCopy,
  migrationCounter: postgresMigrationCounter,
  fileBackup: "a PostgreSQL database: back it up with pg_dump and restore it with pg_restore",
};
