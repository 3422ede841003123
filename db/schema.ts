import { sql } from "drizzle-orm";
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const vendors = sqliteTable("vendors", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  slug: text("slug").notNull().unique(),
  name: text("name").notNull(),
  platform: text("platform").notNull(),
  /** "<platform>@<parserVersion>" that derived the stored versions; a mismatch triggers re-derivation. */
  derivedWith: text("derived_with"),
  /** Set when a capture arrived out of order: history is rebuilt from the captures. */
  needsRederive: integer("needs_rederive", { mode: "boolean" }).notNull().default(false),
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
});

/** Raw bodies, content-addressed: an unchanged snapshot is stored once however often it is fetched. */
export const captureBodies = sqliteTable("capture_bodies", {
  hash: text("hash").primaryKey(),
  encoding: text("encoding", { enum: ["gzip"] }).notNull(),
  size: integer("size").notNull(),
  body: blob("body", { mode: "buffer" }).notNull(),
});

export const CAPTURE_OUTCOMES = ["ok", "not-modified", "failed", "invalid"] as const;
export type CaptureOutcome = (typeof CAPTURE_OUTCOMES)[number];

export const captures = sqliteTable(
  "captures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    source: text("source").notNull(),
    platform: text("platform").notNull(),
    observedAt: text("observed_at").notNull(),
    outcome: text("outcome", { enum: CAPTURE_OUTCOMES }).notNull(),
    error: text("error"),
    size: integer("size"),
    /** sha256 of the raw body (of the empty body when there was none). */
    hash: text("hash").notNull(),
    /** Set when the raw body is kept (ok and invalid captures). */
    bodyHash: text("body_hash").references(() => captureBodies.hash),
    incidentCount: integer("incident_count"),
    versionCount: integer("version_count").notNull().default(0),
    recordedAt: text("recorded_at").notNull(),
  },
  (t) => [
    uniqueIndex("captures_identity").on(t.vendorId, t.source, t.observedAt, t.hash),
    index("captures_vendor_observed").on(t.vendorId, t.observedAt),
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
    index("incidents_vendor_source_presence").on(t.vendorId, t.source, t.presence),
    index("incidents_vendor_changed").on(t.vendorId, t.lastChangedAt),
    index("incidents_started").on(t.startedAt),
    index("incidents_vendor_started").on(t.vendorId, t.startedAt),
    index("incidents_open").on(t.vendorId).where(sql`${t.presence} = 'listed' AND ${t.resolvedAt} IS NULL`),
  ],
);

/** The components of each incident's current version, for filtering a vendor's incidents. */
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

export const incidentVersions = sqliteTable(
  "incident_versions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    incidentId: integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
    vendorId: integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    observedAt: text("observed_at").notNull(),
    hash: text("hash").notNull(),
    /** The full IncidentState (normalized incident + presence) as JSON. */
    snapshot: text("snapshot", { mode: "json" }).notNull(),
    changes: text("changes", { mode: "json" }).notNull(),
    kinds: text("kinds", { mode: "json" }).notNull().$type<string[]>(),
    summary: text("summary").notNull(),
    /** The summary's sentences about this version's changes alone. */
    headline: text("headline").notNull().default(""),
    captureId: integer("capture_id").notNull().references(() => captures.id),
  },
  (t) => [
    uniqueIndex("versions_identity").on(t.incidentId, t.seq),
    index("versions_vendor_observed").on(t.vendorId, t.observedAt),
    index("versions_observed").on(t.observedAt),
    index("versions_capture").on(t.captureId),
  ],
);

/** One row per (version, kind): lets "only impact downgrades" be an indexed query. */
export const versionKinds = sqliteTable(
  "version_kinds",
  {
    versionId: integer("version_id").notNull().references(() => incidentVersions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    vendorId: integer("vendor_id").notNull(),
    observedAt: text("observed_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.kind] }),
    index("version_kinds_kind_observed").on(t.kind, t.observedAt, t.versionId),
    index("version_kinds_vendor_kind_observed").on(t.vendorId, t.kind, t.observedAt, t.versionId),
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
