import { sql } from "drizzle-orm";
import type { defineArchiveTables } from "@/db/schema/archive-tables";
import type { ColumnHelpers } from "@/db/schema/columns";

export const DERIVATION_JOB_STATUSES = ["queued", "building", "swapping", "done", "failed"] as const;
export type DerivationJobStatus = (typeof DERIVATION_JOB_STATUSES)[number];

/** What running Redline keeps beside the archive: rebuilds, pushed polls, throttles, the supervisor's log. */
export function defineOperationTables(h: ColumnHelpers, { vendors }: Pick<ReturnType<typeof defineArchiveTables>, "vendors">) {
  /**
   * A vendor's history being rebuilt from its captures (after a parser upgrade, a late capture, or on
   * request) in the background: built aside in a scratch database, then swapped in incident by incident.
   */
  const derivationJobs = h.table(
    "derivation_jobs",
    {
      id: h.id("id"),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      reason: h.text("reason").notNull(),
      /** The first capture to replay, in capture order; null: from the start. */
      fromObservedAt: h.text("from_observed_at"),
      fromSource: h.text("from_source"),
      fromHash: h.text("from_hash"),
      status: h.text("status", { enum: DERIVATION_JOB_STATUSES }).notNull(),
      /** How many times it was asked for: a job finishes only if no one asked again while it ran. */
      requests: h.integer("requests").notNull().default(1),
      scratchPath: h.text("scratch_path"),
      capturesTotal: h.integer("captures_total").notNull().default(0),
      capturesDone: h.integer("captures_done").notNull().default(0),
      incidentsSwapped: h.integer("incidents_swapped").notNull().default(0),
      /** The longest the job held the database's write lock in one transaction (ms): what a poll could have waited. */
      longestHoldMs: h.integer("longest_hold_ms").notNull().default(0),
      error: h.text("error"),
      createdAt: h.text("created_at").notNull(),
      updatedAt: h.text("updated_at").notNull(),
      finishedAt: h.text("finished_at"),
      leaseOwner: h.text("lease_owner"),
      leaseUntil: h.text("lease_until"),
    },
    (t) => [
      h.index("derivation_jobs_status").on(t.status, t.id),
      h.uniqueIndex("derivation_jobs_active_vendor").on(t.vendorId).where(sql`${t.status} IN ('queued', 'building', 'swapping')`),
    ],
  );

  /** Webhook payloads already taken, by content (their envelope's event ids and times left out). */
  const hookDeliveries = h.table(
    "hook_deliveries",
    {
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      contentHash: h.text("content_hash").notNull(),
      receivedAt: h.text("received_at").notNull(),
    },
    (t) => [h.primaryKey({ columns: [t.vendorId, t.contentHash] })],
  );

  /** Polls asked for by pushes: one per vendor, debounced, taken by the poller's own lane. */
  const pushPolls = h.table("push_polls", {
    vendorId: h.integer("vendor_id").primaryKey().references(() => vendors.id, { onDelete: "cascade" }),
    requestedAt: h.text("requested_at").notNull(),
    dueAt: h.text("due_at").notNull(),
  });

  /** How often each budget (a webhook source, or the ceiling over all) refused, and when it last alerted. */
  /**
   * When the next request to each origin may start, shared by every poller: the per-host politeness
   * interval holds across processes and machines, not only within one (db/operations/host-slots.ts).
   */
  const hostSlots = h.table("host_slots", {
    origin: h.text("origin").primaryKey(),
    /** Milliseconds since the epoch: integers, so a reservation adds the interval in SQL. */
    nextStartMs: h.integer("next_start_ms").notNull(),
  });

  const throttleTelemetry = h.table("throttle_telemetry", {
    scope: h.text("scope").primaryKey(),
    throttled: h.integer("throttled").notNull().default(0),
    lastThrottledAt: h.text("last_throttled_at"),
    lastAlertAt: h.text("last_alert_at"),
  });

  /** What the supervisor of `npm start` saw: a process started, exited, was restarted, or it gave up. */
  const supervisorEvents = h.table(
    "supervisor_events",
    {
      id: h.id("id"),
      at: h.text("at").notNull(),
      process: h.text("process").notNull(),
      event: h.text("event", { enum: ["started", "exited", "restarting", "gave-up"] }).notNull(),
      detail: h.text("detail"),
    },
    (t) => [h.index("supervisor_events_at").on(t.at)],
  );

  /**
   * The operator's signed-in browsers: kept here, not in one server's memory, so a session made on one
   * web server is good on the others. Only a SHA-256 of the cookie's random id is kept; a session holds
   * only while the operator token it was made with is the one configured (server/operator-session.ts).
   */
  const operatorSessions = h.table(
    "operator_sessions",
    {
      idHash: h.text("id_hash").primaryKey(),
      tokenFingerprint: h.text("token_fingerprint").notNull(),
      createdAt: h.text("created_at").notNull(),
      expiresAt: h.text("expires_at").notNull(),
    },
    (t) => [h.index("operator_sessions_expires_at").on(t.expiresAt)],
  );

  return {
    derivationJobs,
    hookDeliveries,
    pushPolls,
    hostSlots,
    throttleTelemetry,
    supervisorEvents,
    operatorSessions,
  };
}
