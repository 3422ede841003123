import { sql } from "drizzle-orm";
import { blob, customType, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { StoredPatch } from "@/db/json-deltas";
import type { PackedJson } from "@/db/packed-json";
import { SUBSCRIPTION_FORMATS } from "@/lib/notify/subscription-target";

/** A TEXT column that may also hold a blob (SQLite keeps a Buffer bound to it as one): read and written as stored. */
const textOrBlob = <T extends string | Buffer>() =>
  customType<{ data: T; driverData: T }>({
    dataType: () => "text",
  });

export const vendors = sqliteTable("vendors", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  platform: text("platform").notNull(),
  /** The parser versions (and derivation version) that derived the stored history; a mismatch queues a rebuild. */
  derivedWith: text("derived_with"),
  /** The last capture applied to the history, in capture order: one ordered before it arrived late. */
  appliedObservedAt: text("applied_observed_at"),
  appliedSource: text("applied_source"),
  appliedHash: text("applied_hash"),
  /**
   * The latest capture whose derivation read the vendor's other sources' standing (when each last
   * served content): a run of unchanged observations ending before it may not be extended past it.
   */
  standingsReadAt: text("standings_read_at"),
  standingsReadBy: text("standings_read_by"),
  createdAt: text("created_at").notNull(),
  /** The status page's base URL or an exact endpoint; null for import-only vendors. */
  url: text("url"),
  /** Seconds between polls; null: the default. */
  intervalSeconds: integer("interval_seconds"),
  /** Whether the poller polls it. */
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** Where the vendor came from: the built-in catalog, a user's `vendors add`, or an import. */
  origin: text("origin", { enum: ["catalog", "user", "import"] }).notNull().default("import"),
  homepage: text("homepage"),
  statusPageUrl: text("status_page_url"),
  /** SHA-256 (hex) of the secret in the vendor's webhook URL; null: pushes are refused. */
  hookSecretHash: text("hook_secret_hash"),
});

/** One polled endpoint of a vendor: its validators for conditional GET and the last body seen. */
export const sources = sqliteTable(
  "sources",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    platform: text("platform").notNull(),
    etag: text("etag"),
    lastModified: text("last_modified"),
    lastBodyHash: text("last_body_hash"),
    lastFetchedAt: text("last_fetched_at"),
    lastStatus: integer("last_status"),
  },
  (t) => [uniqueIndex("sources_identity").on(t.vendorId, t.url)],
);

/** The poller's view of each vendor: when it polls next, and how the last poll went. */
export const pollState = sqliteTable("poll_state", {
  vendorId: integer("vendor_id").primaryKey().references(() => vendors.id, { onDelete: "cascade" }),
  nextPollAt: text("next_poll_at").notNull(),
  lastPollAt: text("last_poll_at"),
  lastOutcome: text("last_outcome"),
  lastError: text("last_error"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  backoffSeconds: integer("backoff_seconds").notNull().default(0),
  /** The poller polling the vendor now, until when: several pollers share the vendors (db/poll-leases.ts). */
  leaseOwner: text("lease_owner"),
  leaseExpiresAt: text("lease_expires_at"),
});

/**
 * When the next request to each origin may start, shared by every poller: the per-host politeness
 * interval holds across processes and machines, not only within one (db/host-slots.ts).
 */
export const hostSlots = sqliteTable("host_slots", {
  origin: text("origin").primaryKey(),
  /** Milliseconds since the epoch: integers, so a reservation adds the interval in SQL. */
  nextStartMs: integer("next_start_ms").notNull(),
});

/**
 * How raw bodies are encoded at rest: `zstd` a whole body, `zstd-delta` a body compressed with the
 * raw content of its base body as the dictionary (zstd's patch-from), `gzip` a whole body as the
 * layout before deltas stored it (read, and converted by `migrate`; never written).
 */
export const BODY_ENCODINGS = ["gzip", "zstd", "zstd-delta"] as const;
export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/**
 * Raw bodies, content-addressed: an unchanged snapshot is stored once however often it is fetched.
 * Each source's bodies form chains of deltas back to a whole one (db/capture-bodies.ts).
 */
export const captureBodies = sqliteTable(
  "capture_bodies",
  {
    /** What captures and deltas refer to: an integer, not the 32-byte hash, in every row and index that points at a body. */
    id: integer("id").primaryKey(),
    /** sha256 of the raw body, as 32 bytes (db/capture-bodies.ts reads and writes it as hex). */
    hash: blob("hash", { mode: "buffer" }).notNull(),
    encoding: text("encoding", { enum: BODY_ENCODINGS }).notNull(),
    size: integer("size").notNull(),
    body: blob("body", { mode: "buffer" }).notNull(),
    /** The body a delta is decoded against; null for whole bodies. */
    baseId: integer("base_id"),
    /** Deltas decoded to restore it (0 for a whole body). */
    depth: integer("depth").notNull().default(0),
    /** Raw bytes decoded to restore it: its size plus its base's chain bytes. */
    chainBytes: integer("chain_bytes").notNull().default(0),
    /** Deltas back to where its stretch of the chain starts: a whole body, or a delta against the previous stretch's start. */
    run: integer("run").notNull().default(0),
    /** The source whose chain it extends (no foreign key: a purge re-bases what others still use). */
    vendorId: integer("vendor_id"),
    sourceId: integer("source_id"),
    /** Its place among the vendor's bodies: a source's next body is a delta against its last (or the vendor's). */
    position: integer("position"),
  },
  (t) => [
    uniqueIndex("capture_bodies_hash").on(t.hash),
    index("capture_bodies_chain").on(t.sourceId, t.position),
    index("capture_bodies_vendor_order").on(t.vendorId, t.position),
    index("capture_bodies_base").on(t.baseId).where(sql`${t.baseId} IS NOT NULL`),
    index("capture_bodies_legacy").on(t.id).where(sql`${t.encoding} = 'gzip'`),
  ],
);

export const CAPTURE_OUTCOMES = ["ok", "not-modified", "failed", "invalid"] as const;
export type CaptureOutcome = (typeof CAPTURE_OUTCOMES)[number];

export const captures = sqliteTable(
  "captures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    platform: text("platform").notNull(),
    /** The first observation of the run: capture order and the identity go by it. */
    observedAt: text("observed_at").notNull(),
    /** The last observation of the run (consecutive observations of the source with this outcome and content). */
    lastObservedAt: text("last_observed_at"),
    /** How many observations the run holds. */
    observations: integer("observations").notNull().default(1),
    outcome: text("outcome", { enum: CAPTURE_OUTCOMES }).notNull(),
    error: text("error"),
    size: integer("size"),
    /** sha256 of the raw body; of the body it confirms for a 304; of the empty body when there was none. */
    hash: text("hash").notNull(),
    /**
     * Always NULL: bodies are referred to by `body_id`. SQLite cannot drop a column its table's own
     * foreign key clause names without rebuilding the table, and others reference this one.
     */
    retiredBodyHash: text("body_hash").references(() => captureBodies.hash),
    /** The raw body, when it is kept (ok and invalid captures): the body of `hash`. */
    bodyId: integer("body_id").references(() => captureBodies.id),
    /** When retention removed the raw body (body_id is then NULL): the capture is kept, its body is not. */
    bodyPrunedAt: text("body_pruned_at"),
    incidentCount: integer("incident_count"),
    versionCount: integer("version_count").notNull().default(0),
    recordedAt: text("recorded_at").notNull(),
    /** What could not be read in the snapshot, as JSON [{path, message}]; the rest was recorded. */
    warnings: text("warnings"),
    warningCount: integer("warning_count").notNull().default(0),
    /** The oldest recency the snapshot listed, for sources that list a window of recent incidents. */
    windowStart: text("window_start"),
  },
  (t) => [
    // Also serves a source's captures in time order (queries that must not scan the vendor's say INDEXED BY).
    uniqueIndex("captures_identity").on(t.vendorId, t.source, t.observedAt, t.hash),
    // Capture order (time, then source and content): the time seeks, ties of one instant are sorted in place.
    index("captures_vendor_time").on(t.vendorId, t.observedAt),
    index("captures_with_warnings").on(t.observedAt).where(sql`${t.warningCount} > 0`),
    // Whether a body is still used by any capture, when one is purged.
    index("captures_body").on(t.bodyId).where(sql`${t.bodyId} IS NOT NULL`),
    // Empty, one page: deleting a body makes SQLite look for captures naming it in the retired column too, a scan without it.
    index("captures_retired_body_hash").on(t.retiredBodyHash).where(sql`${t.retiredBodyHash} IS NOT NULL`),
    // Runs still open to a late capture's split: few, the recent ones.
    index("captures_vendor_runs").on(t.vendorId, t.lastObservedAt).where(sql`${t.observations} > 1`),
    // A vendor's pruned captures: where re-derivation must stop, and what the operator page shows.
    index("captures_vendor_pruned").on(t.vendorId, t.observedAt).where(sql`${t.bodyPrunedAt} IS NOT NULL`),
  ],
);

export const PRESENCE_VALUES = ["listed", "left-feed", "deleted"] as const;

export const incidents = sqliteTable(
  "incidents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull(),
    kind: text("kind", { enum: ["incident", "maintenance"] }).notNull(),
    title: text("title").notNull(),
    status: text("status"),
    impact: text("impact"),
    startedAt: text("started_at"),
    resolvedAt: text("resolved_at"),
    presence: text("presence", { enum: PRESENCE_VALUES }).notNull(),
    /** The source that last listed the incident: presence is judged against that source's snapshots. */
    source: text("source").notNull(),
    firstSeenAt: text("first_seen_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    /** Hash of the incident as last observed (may differ from the last version's by storage precision only). */
    observedHash: text("observed_hash").notNull(),
    versionCount: integer("version_count").notNull(),
    lastChangedAt: text("last_changed_at").notNull(),
    /** When Redline first saw a postmortem on it. */
    postmortemAt: text("postmortem_at"),
    /** Versions that edited it (impact, title, timing, updates, postmortem) after it was resolved. */
    editsAfterResolution: integer("edits_after_resolution").notNull().default(0),
  },
  (t) => [
    uniqueIndex("incidents_identity").on(t.vendorId, t.providerId),
    index("incidents_vendor_started").on(t.vendorId, t.startedAt),
    // In start order too: a vendor's open incidents are listed newest first.
    index("incidents_open").on(t.vendorId, t.startedAt).where(sql`${t.presence} = 'listed' AND ${t.resolvedAt} IS NULL`),
    // Listed incidents first seen after a source last looked: those it may owe a listing.
    index("incidents_listed_seen").on(t.vendorId, t.firstSeenAt).where(sql`${t.presence} = 'listed'`),
  ],
);

/** The components of each incident's current version, for filtering a vendor's incidents (WITHOUT ROWID, migration 0019). */
export const incidentComponents = sqliteTable(
  "incident_components",
  {
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull(),
    componentId: text("component_id").notNull(),
    name: text("name").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.incidentId, t.componentId] }),
    index("incident_components_vendor_name").on(t.vendorId, t.name),
  ],
);

/**
 * Each incident's indexed text (title, update texts, postmortem) compressed, the content of the
 * external-content FTS5 table incident_search through the view incident_search_source; triggers
 * keep the index in step with it (migration 0018, db/search-text.ts).
 */
export const incidentSearchText = sqliteTable("incident_search_text", {
  incidentId: integer("incident_id").primaryKey(),
  body: blob("body", { mode: "buffer" }).notNull(),
});

export const incidentVersions = sqliteTable(
  "incident_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    observedAt: text("observed_at").notNull(),
    hash: text("hash").notNull(),
    /**
     * The full IncidentState (normalized incident + presence) as JSON (packed, db/packed-json.ts), kept
     * for the latest version and every VERSION_CHECKPOINT-th; the others are rebuilt from `patch` (db/version-states.ts).
     */
    snapshot: textOrBlob<PackedJson>()("snapshot"),
    /** A zstd delta against the next version's snapshot, or (written before) a lib/json-patch text from the previous one. */
    patch: textOrBlob<StoredPatch>()("patch"),
    kinds: text("kinds", { mode: "json" }).notNull().$type<string[]>(),
    /**
     * The version's changes, summary and headline, and the incident's title, impact and kind as of
     * it: one zstd frame against a fixed dictionary (db/version-content.ts).
     */
    content: blob("content", { mode: "buffer" }).notNull(),
    /** The SUMMARY_VERSION that wrote summary and headline: older text is rendered again on read. */
    textVersion: integer("text_version").notNull().default(1),
    captureId: integer("capture_id").notNull().references(() => captures.id),
  },
  (t) => [
    uniqueIndex("versions_identity").on(t.incidentId, t.seq),
    index("versions_vendor_observed").on(t.vendorId, t.observedAt),
    index("versions_observed").on(t.observedAt),
    index("versions_capture").on(t.captureId),
  ],
);

/** Which sources list each incident, and the hash of each one's last observation of it (WITHOUT ROWID, migration 0019). */
export const incidentSources = sqliteTable(
  "incident_sources",
  {
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull(),
    source: text("source").notNull(),
    listed: integer("listed", { mode: "boolean" }).notNull(),
    hash: text("hash"),
  },
  (t) => [
    primaryKey({ columns: [t.incidentId, t.source] }),
    index("incident_sources_listed").on(t.vendorId, t.source).where(sql`${t.listed} = 1`),
  ],
);

/**
 * Every state an incident's record went through, one row per capture that changed it: a capture
 * that arrives late rewinds the records to before it and replays what followed.
 */
export const incidentStates = sqliteTable(
  "incident_states",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    captureId: integer("capture_id").notNull().references(() => captures.id),
    /** The record as JSON: kept for the latest state and at checkpoints (db/state-log.ts), else rebuilt from `patch`. */
    state: textOrBlob<PackedJson>()("state"),
    /** A zstd delta against the incident's next state row, or (written before) a lib/json-patch text from the previous one. */
    patch: textOrBlob<StoredPatch>()("patch"),
    /** The row's place since the incident's first, modulo STATE_CHECKPOINT: the last value is a checkpoint. */
    depth: integer("depth").notNull().default(0),
  },
  (t) => [index("incident_states_incident").on(t.incidentId, t.id), index("incident_states_capture").on(t.captureId)],
);

export const DERIVATION_JOB_STATUSES = ["queued", "building", "swapping", "done", "failed"] as const;
export type DerivationJobStatus = (typeof DERIVATION_JOB_STATUSES)[number];

/**
 * A vendor's history being rebuilt from its captures (after a parser upgrade, a late capture, or on
 * request) in the background: built aside in a scratch database, then swapped in incident by incident.
 */
export const derivationJobs = sqliteTable(
  "derivation_jobs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    reason: text("reason").notNull(),
    /** The first capture to replay, in capture order; null: from the start. */
    fromObservedAt: text("from_observed_at"),
    fromSource: text("from_source"),
    fromHash: text("from_hash"),
    status: text("status", { enum: DERIVATION_JOB_STATUSES }).notNull(),
    /** How many times it was asked for: a job finishes only if no one asked again while it ran. */
    requests: integer("requests").notNull().default(1),
    scratchPath: text("scratch_path"),
    capturesTotal: integer("captures_total").notNull().default(0),
    capturesDone: integer("captures_done").notNull().default(0),
    incidentsSwapped: integer("incidents_swapped").notNull().default(0),
    /** The longest the job held the database's write lock in one transaction (ms): what a poll could have waited. */
    longestHoldMs: integer("longest_hold_ms").notNull().default(0),
    error: text("error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
    leaseOwner: text("lease_owner"),
    leaseUntil: text("lease_until"),
  },
  (t) => [
    index("derivation_jobs_status").on(t.status, t.id),
    uniqueIndex("derivation_jobs_active_vendor").on(t.vendorId).where(sql`${t.status} IN ('queued', 'building', 'swapping')`),
  ],
);

/**
 * One row per (version, kind): lets "only impact downgrades" be an indexed query. WITHOUT ROWID
 * (migration 0019), keyed in the order the kind lists read it; the kind is its code in
 * CHANGE_KIND_CODES and the observation time the version's, in milliseconds since 1970.
 */
export const versionKinds = sqliteTable(
  "version_kinds",
  {
    kind: integer("kind").notNull(),
    observedMs: integer("observed_ms").notNull(),
    versionId: integer("version_id").notNull().references(() => incidentVersions.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.observedMs, t.versionId] }),
    index("version_kinds_vendor").on(t.vendorId, t.kind, t.observedMs, t.versionId),
    // The key's columns follow in every entry: a version's rows, for the cascade from its deletion.
    index("version_kinds_version").on(t.versionId),
  ],
);

/**
 * One row whose revision goes up (by trigger) whenever a version is written or removed or a
 * vendor changes: a rendered page is still current while the revision it was rendered at is.
 */
export const archiveRevision = sqliteTable("archive_revision", {
  id: integer("id").primaryKey(),
  revision: integer("revision").notNull(),
});

/**
 * Whom each archive change concerns, newest last (written by the triggers that raise
 * archive_revision; they keep the newest 4,096): the web server evicts only the kept pages that
 * show that vendor, incident or change kind. A change with no vendor concerns every page.
 */
export const archiveChanges = sqliteTable("archive_changes", {
  seq: integer("seq").primaryKey({ autoIncrement: true }),
  vendorSlug: text("vendor_slug"),
  providerId: text("provider_id"),
  /** The version's kinds as incident_versions stores them (a JSON list); null for a vendor's change, which every kind feed shows. */
  kinds: text("kinds"),
});

/** Webhook payloads already taken, by content (their envelope's event ids and times left out). */
export const hookDeliveries = sqliteTable(
  "hook_deliveries",
  {
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    contentHash: text("content_hash").notNull(),
    receivedAt: text("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.contentHash] })],
);

/** Polls asked for by pushes: one per vendor, debounced, taken by the poller's own lane. */
export const pushPolls = sqliteTable("push_polls", {
  vendorId: integer("vendor_id").primaryKey().references(() => vendors.id, { onDelete: "cascade" }),
  requestedAt: text("requested_at").notNull(),
  dueAt: text("due_at").notNull(),
});

/** How often each budget (a webhook source, or the ceiling over all) refused, and when it last alerted. */
export const throttleTelemetry = sqliteTable("throttle_telemetry", {
  scope: text("scope").primaryKey(),
  throttled: integer("throttled").notNull().default(0),
  lastThrottledAt: text("last_throttled_at"),
  lastAlertAt: text("last_alert_at"),
});

/** What the supervisor of `npm start` saw: a process started, exited, was restarted, or it gave up. */
export const supervisorEvents = sqliteTable(
  "supervisor_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at").notNull(),
    process: text("process").notNull(),
    event: text("event", { enum: ["started", "exited", "restarting", "gave-up"] }).notNull(),
    detail: text("detail"),
  },
  (t) => [index("supervisor_events_at").on(t.at)],
);

/** A named set of vendors (or some of their components) that a team depends on. */
export const watchlists = sqliteTable("watchlists", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  createdAt: text("created_at").notNull(),
});

/** One vendor of a watchlist; component null: the whole vendor, else only incidents affecting that component. */
export const watchlistMembers = sqliteTable(
  "watchlist_members",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    watchlistId: integer("watchlist_id").notNull().references(() => watchlists.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    component: text("component"),
  },
  (t) => [uniqueIndex("watchlist_members_identity").on(t.watchlistId, t.vendorId, sql`coalesce(${t.component}, '')`)],
);

export const SUBSCRIPTION_STATUSES = ["active", "disabled"] as const;

/** Where changes are pushed, and which: filters as JSON (lib/notify/subscription-filter.ts). */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    /** `sub_` and random characters: the id the CLI and API name it by. */
    id: text("id").primaryKey(),
    target: text("target").notNull(),
    format: text("format", { enum: SUBSCRIPTION_FORMATS }).notNull(),
    /** SubscriptionFilter as JSON. */
    filter: text("filter").notNull(),
    /** A watchlist filter; removing the watchlist is refused while a subscription names it. */
    watchlistId: integer("watchlist_id").references(() => watchlists.id, { onDelete: "restrict" }),
    digest: text("digest", { enum: ["hourly", "daily"] }),
    /** `whsec_` and base64 key bytes (Standard Webhooks); kept to sign, never shown again after creation but by `subscriptions list --secrets`. */
    secret: text("secret").notNull(),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("active"),
    disabledAt: text("disabled_at"),
    disabledReason: text("disabled_reason"),
    /** When the current run of failed attempts began; null after a success. */
    failingSince: text("failing_since"),
    lastDeliveredAt: text("last_delivered_at"),
    createdAt: text("created_at").notNull(),
  },
);

/**
 * Versions recorded by a poll or push, waiting to be matched against the subscriptions: written in
 * the version's own transaction (one row per version, whatever the number of subscriptions, so
 * polling costs the same with a thousand of them), matched by the notifier into `notifications`.
 */
export const outboxVersions = sqliteTable("outbox_versions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
  providerId: text("provider_id").notNull(),
  seq: integer("seq").notNull(),
  /** What subscriptions are matched on (lib/notify/subscription-filter.ts ChangeFacts) as JSON. */
  facts: text("facts").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * The outbox: one row per (subscription, version) to notify, written in the version's own
 * transaction. The version is named by what survives a rebuild (vendor, provider id, seq), not by row ids.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subscriptionId: text("subscription_id").notNull().references(() => subscriptions.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    providerId: text("provider_id").notNull(),
    seq: integer("seq").notNull(),
    /** When the version was recorded. */
    createdAt: text("created_at").notNull(),
    /** The message that carries it; null while it waits to be planned into one. */
    messageId: integer("message_id").references(() => notificationMessages.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("notifications_identity").on(t.subscriptionId, t.vendorId, t.providerId, t.seq),
    index("notifications_unplanned").on(t.subscriptionId, t.id).where(sql`${t.messageId} IS NULL`),
    index("notifications_message").on(t.messageId),
  ],
);

export const MESSAGE_KINDS = ["single", "batch", "digest", "test"] as const;
export const MESSAGE_STATUSES = ["pending", "sent", "failed", "dropped"] as const;

/** One message to one subscription carrying one or more notifications; its webhook id stays across retries. */
export const notificationMessages = sqliteTable(
  "notification_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subscriptionId: text("subscription_id").notNull().references(() => subscriptions.id, { onDelete: "cascade" }),
    /** `msg_` and random characters: Standard Webhooks' webhook-id, the receiver's deduplication key. */
    webhookId: text("webhook_id").notNull().unique(),
    kind: text("kind", { enum: MESSAGE_KINDS }).notNull(),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    createdAt: text("created_at").notNull(),
    sentAt: text("sent_at"),
    lastError: text("last_error"),
    /** A digest's period as JSON {from, to, every}; null for other kinds. */
    period: text("period"),
  },
  (t) => [
    index("notification_messages_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("notification_messages_subscription").on(t.subscriptionId, t.createdAt),
  ],
);

/** The delivery log: every attempt to send a message. */
export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id").notNull().references(() => notificationMessages.id, { onDelete: "cascade" }),
    subscriptionId: text("subscription_id").notNull().references(() => subscriptions.id, { onDelete: "cascade" }),
    attemptedAt: text("attempted_at").notNull(),
    /** The HTTP status or SMTP reply code; null when none came (refused, timed out). */
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    outcome: text("outcome", { enum: ["delivered", "retry", "gone", "failed"] }).notNull(),
    error: text("error"),
  },
  (t) => [index("delivery_attempts_subscription").on(t.subscriptionId, t.id)],
);
