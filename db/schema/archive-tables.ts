import { sql } from "drizzle-orm";
import { BODY_ENCODINGS, type BodyEncoding } from "@/db/history/body-codec";
import type { StoredPatch } from "@/db/history/json-deltas";
import type { PackedJson } from "@/db/history/packed-json";
import type { ColumnHelpers } from "@/db/schema/columns";

/** How raw bodies are encoded at rest (db/history/body-codec.ts). */
export { BODY_ENCODINGS, type BodyEncoding };

export const CAPTURE_OUTCOMES = ["ok", "not-modified", "failed", "invalid"] as const;
export type CaptureOutcome = (typeof CAPTURE_OUTCOMES)[number];

export const PRESENCE_VALUES = ["listed", "left-feed", "deleted"] as const;

/** The archive: vendors, what was fetched from them, the incidents derived and every version of each. */
export function defineArchiveTables(h: ColumnHelpers) {
  const vendors = h.table("vendors", {
    id: h.id("id"),
    slug: h.text("slug").notNull().unique(),
    name: h.text("name").notNull(),
    platform: h.text("platform").notNull(),
    /** The parser versions (and derivation version) that derived the stored history; a mismatch queues a rebuild. */
    derivedWith: h.jsonText("derived_with"),
    /** The last capture applied to the history, in capture order: one ordered before it arrived late. */
    appliedObservedAt: h.text("applied_observed_at"),
    appliedSource: h.text("applied_source"),
    appliedHash: h.text("applied_hash"),
    /**
     * The latest capture whose derivation read the vendor's other sources' standing (when each last
     * served content): a run of unchanged observations ending before it may not be extended past it.
     */
    standingsReadAt: h.text("standings_read_at"),
    standingsReadBy: h.text("standings_read_by"),
    createdAt: h.text("created_at").notNull(),
    /** The status page's base URL or an exact endpoint; null for import-only vendors. */
    url: h.text("url"),
    /** Seconds between polls; null: the default. */
    intervalSeconds: h.integer("interval_seconds"),
    /** Whether the poller polls it. */
    enabled: h.boolean("enabled").notNull().default(true),
    /** Where the vendor came from: the built-in catalog, a user's `vendors add`, or an import. */
    origin: h.text("origin", { enum: ["catalog", "user", "import"] }).notNull().default("import"),
    homepage: h.text("homepage"),
    statusPageUrl: h.text("status_page_url"),
    /** SHA-256 (hex) of the secret in the vendor's webhook URL; null: pushes are refused. */
    hookSecretHash: h.text("hook_secret_hash"),
  });

  /** One polled endpoint of a vendor: its validators for conditional GET and the last body seen. */
  const sources = h.table(
    "sources",
    {
      id: h.id("id"),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      url: h.text("url").notNull(),
      platform: h.text("platform").notNull(),
      etag: h.text("etag"),
      lastModified: h.text("last_modified"),
      lastBodyHash: h.text("last_body_hash"),
      lastFetchedAt: h.text("last_fetched_at"),
      lastStatus: h.integer("last_status"),
    },
    (t) => [h.uniqueIndex("sources_identity").on(t.vendorId, t.url)],
  );

  /** The poller's view of each vendor: when it polls next, and how the last poll went. */
  const pollState = h.table("poll_state", {
    vendorId: h.integer("vendor_id").primaryKey().references(() => vendors.id, { onDelete: "cascade" }),
    nextPollAt: h.text("next_poll_at").notNull(),
    lastPollAt: h.text("last_poll_at"),
    lastOutcome: h.text("last_outcome"),
    lastError: h.text("last_error"),
    consecutiveFailures: h.integer("consecutive_failures").notNull().default(0),
    backoffSeconds: h.integer("backoff_seconds").notNull().default(0),
    /** The poller polling the vendor now, until when: several pollers share the vendors (db/operations/poll-leases.ts). */
    leaseOwner: h.text("lease_owner"),
    leaseExpiresAt: h.text("lease_expires_at"),
  });

  /**
   * Raw bodies, content-addressed: an unchanged snapshot is stored once however often it is fetched.
   * Each source's bodies form chains of deltas back to a whole one (db/history/capture-bodies.ts).
   */
  const captureBodies = h.table(
    "capture_bodies",
    {
      /** What captures and deltas refer to: an integer, not the 32-byte hash, in every row and index that points at a body. */
      id: h.rowId("id"),
      /** sha256 of the raw body, as 32 bytes (db/history/capture-bodies.ts reads and writes it as hex). */
      hash: h.blob("hash").notNull(),
      encoding: h.text("encoding", { enum: BODY_ENCODINGS }).notNull(),
      size: h.integer("size").notNull(),
      body: h.blob("body").notNull(),
      /** The body a delta is decoded against; null for whole bodies. */
      baseId: h.integer("base_id"),
      /** Deltas decoded to restore it (0 for a whole body). */
      depth: h.integer("depth").notNull().default(0),
      /** Raw bytes decoded to restore it: its size plus its base's chain bytes. */
      chainBytes: h.integer("chain_bytes").notNull().default(0),
      /** Deltas back to where its stretch of the chain starts: a whole body, or a delta against the previous stretch's start. */
      run: h.integer("run").notNull().default(0),
      /** The source whose chain it extends (no foreign key: a purge re-bases what others still use). */
      vendorId: h.integer("vendor_id"),
      sourceId: h.integer("source_id"),
      /** Its place among the vendor's bodies: a source's next body is a delta against its last (or the vendor's). */
      position: h.integer("position"),
    },
    (t) => [
      h.uniqueIndex("capture_bodies_hash").on(t.hash),
      h.index("capture_bodies_chain").on(t.sourceId, t.position),
      h.index("capture_bodies_vendor_order").on(t.vendorId, t.position),
      h.index("capture_bodies_base").on(t.baseId).where(sql`${t.baseId} IS NOT NULL`),
      h.index("capture_bodies_legacy").on(t.id).where(sql`${t.encoding} = 'gzip'`),
    ],
  );

  const captures = h.table(
    "captures",
    {
      id: h.id("id"),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      source: h.text("source").notNull(),
      platform: h.text("platform").notNull(),
      /** The first observation of the run: capture order and the identity go by it. */
      observedAt: h.text("observed_at").notNull(),
      /** The last observation of the run (consecutive observations of the source with this outcome and content). */
      lastObservedAt: h.text("last_observed_at"),
      /** How many observations the run holds. */
      observations: h.integer("observations").notNull().default(1),
      outcome: h.text("outcome", { enum: CAPTURE_OUTCOMES }).notNull(),
      error: h.text("error"),
      size: h.integer("size"),
      /** sha256 of the raw body; of the body it confirms for a 304; of the empty body when there was none. */
      hash: h.text("hash").notNull(),
      /**
       * Always NULL: bodies are referred to by `body_id`. SQLite cannot drop a column its table's own
       * foreign key clause names without rebuilding the table, and others reference this one.
       */
      retiredBodyHash: h.referenceOnSqlite(h.text("body_hash"), () => captureBodies.hash),
      /** The raw body, when it is kept (ok and invalid captures): the body of `hash`. */
      bodyId: h.integer("body_id").references(() => captureBodies.id),
      /** When retention removed the raw body (body_id is then NULL): the capture is kept, its body is not. */
      bodyPrunedAt: h.text("body_pruned_at"),
      incidentCount: h.integer("incident_count"),
      versionCount: h.integer("version_count").notNull().default(0),
      recordedAt: h.text("recorded_at").notNull(),
      /** What could not be read in the snapshot, as JSON [{path, message}]; the rest was recorded. */
      warnings: h.jsonText("warnings"),
      warningCount: h.integer("warning_count").notNull().default(0),
      /** The oldest recency the snapshot listed, for sources that list a window of recent incidents. */
      windowStart: h.text("window_start"),
    },
    (t) => [
      // Also serves a source's captures in time order (queries that must not scan the vendor's say INDEXED BY).
      h.uniqueIndex("captures_identity").on(t.vendorId, t.source, t.observedAt, t.hash),
      // Capture order (time, then source and content): the time seeks, ties of one instant are sorted in place.
      h.index("captures_vendor_time").on(t.vendorId, t.observedAt),
      h.index("captures_with_warnings").on(t.observedAt).where(sql`${t.warningCount} > 0`),
      // Whether a body is still used by any capture, when one is purged.
      h.index("captures_body").on(t.bodyId).where(sql`${t.bodyId} IS NOT NULL`),
      // Empty, one page: deleting a body makes SQLite look for captures naming it in the retired column too, a scan without it.
      h.index("captures_retired_body_hash").on(t.retiredBodyHash).where(sql`${t.retiredBodyHash} IS NOT NULL`),
      // Runs still open to a late capture's split: few, the recent ones.
      h.index("captures_vendor_runs").on(t.vendorId, t.lastObservedAt).where(sql`${t.observations} > 1`),
      // A vendor's pruned captures: where re-derivation must stop, and what the operator page shows.
      h.index("captures_vendor_pruned").on(t.vendorId, t.observedAt).where(sql`${t.bodyPrunedAt} IS NOT NULL`),
    ],
  );

  const incidents = h.table(
    "incidents",
    {
      id: h.id("id"),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      providerId: h.text("provider_id").notNull(),
      kind: h.text("kind", { enum: ["incident", "maintenance"] }).notNull(),
      title: h.text("title").notNull(),
      status: h.text("status"),
      impact: h.text("impact"),
      startedAt: h.text("started_at"),
      resolvedAt: h.text("resolved_at"),
      presence: h.text("presence", { enum: PRESENCE_VALUES }).notNull(),
      /** The source that last listed the incident: presence is judged against that source's snapshots. */
      source: h.text("source").notNull(),
      firstSeenAt: h.text("first_seen_at").notNull(),
      lastSeenAt: h.text("last_seen_at").notNull(),
      /** Hash of the incident as last observed (may differ from the last version's by storage precision only). */
      observedHash: h.text("observed_hash").notNull(),
      versionCount: h.integer("version_count").notNull(),
      lastChangedAt: h.text("last_changed_at").notNull(),
      /** When Redline first saw a postmortem on it. */
      postmortemAt: h.text("postmortem_at"),
      /** Versions that edited it (impact, title, timing, updates, postmortem) after it was resolved. */
      editsAfterResolution: h.integer("edits_after_resolution").notNull().default(0),
    },
    (t) => [
      h.uniqueIndex("incidents_identity").on(t.vendorId, t.providerId),
      h.index("incidents_vendor_started").on(t.vendorId, t.startedAt),
      // In start order too: a vendor's open incidents are listed newest first.
      h.index("incidents_open").on(t.vendorId, t.startedAt).where(sql`${t.presence} = 'listed' AND ${t.resolvedAt} IS NULL`),
      // Listed incidents first seen after a source last looked: those it may owe a listing.
      h.index("incidents_listed_seen").on(t.vendorId, t.firstSeenAt).where(sql`${t.presence} = 'listed'`),
    ],
  );

  /** The components of each incident's current version, for filtering a vendor's incidents (WITHOUT ROWID, migration 0019). */
  const incidentComponents = h.table(
    "incident_components",
    {
      incidentId: h.integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull(),
      componentId: h.text("component_id").notNull(),
      name: h.text("name").notNull(),
    },
    (t) => [
      h.primaryKey({ columns: [t.incidentId, t.componentId] }),
      h.index("incident_components_vendor_name").on(t.vendorId, t.name),
      // A component page's incidents: those naming one component, sought rather than the vendor's all read.
      h.index("incident_components_vendor_component").on(t.vendorId, t.componentId),
    ],
  );

  const incidentVersions = h.table(
    "incident_versions",
    {
      id: h.id("id"),
      incidentId: h.integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      seq: h.integer("seq").notNull(),
      observedAt: h.text("observed_at").notNull(),
      hash: h.text("hash").notNull(),
      /**
       * The full IncidentState (normalized incident + presence) as JSON (packed, db/history/packed-json.ts), kept
       * for the latest version and every VERSION_CHECKPOINT-th; the others are rebuilt from `patch` (db/history/version-states.ts).
       */
      snapshot: h.packed<PackedJson>()("snapshot"),
      /** A zstd delta against the next version's snapshot, or (written before) a lib/json-patch text from the previous one. */
      patch: h.packed<StoredPatch>()("patch"),
      kinds: h.json("kinds").notNull().$type<string[]>(),
      /**
       * The version's changes, summary and headline, and the incident's title, impact and kind as of
       * it: one zstd frame against a fixed dictionary (db/history/version-content.ts).
       */
      content: h.blob("content").notNull(),
      /** The SUMMARY_VERSION that wrote summary and headline: older text is rendered again on read. */
      textVersion: h.integer("text_version").notNull().default(1),
      captureId: h.integer("capture_id").notNull().references(() => captures.id),
    },
    (t) => [
      h.uniqueIndex("versions_identity").on(t.incidentId, t.seq),
      h.index("versions_vendor_observed").on(t.vendorId, t.observedAt),
      h.index("versions_observed").on(t.observedAt),
      h.index("versions_capture").on(t.captureId),
    ],
  );

  /** Which sources list each incident, and the hash of each one's last observation of it (WITHOUT ROWID, migration 0019). */
  const incidentSources = h.table(
    "incident_sources",
    {
      incidentId: h.integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull(),
      source: h.text("source").notNull(),
      listed: h.boolean("listed").notNull(),
      hash: h.text("hash"),
    },
    (t) => [
      h.primaryKey({ columns: [t.incidentId, t.source] }),
      h.index("incident_sources_listed").on(t.vendorId, t.source).where(h.isTrue(t.listed)),
    ],
  );

  /**
   * Every state an incident's record went through, one row per capture that changed it: a capture
   * that arrives late rewinds the records to before it and replays what followed.
   */
  const incidentStates = h.table(
    "incident_states",
    {
      id: h.id("id"),
      incidentId: h.integer("incident_id").notNull().references(() => incidents.id, { onDelete: "cascade" }),
      captureId: h.integer("capture_id").notNull().references(() => captures.id),
      /** The record as JSON: kept for the latest state and at checkpoints (db/history/state-log.ts), else rebuilt from `patch`. */
      state: h.packed<PackedJson>()("state"),
      /** A zstd delta against the incident's next state row, or (written before) a lib/json-patch text from the previous one. */
      patch: h.packed<StoredPatch>()("patch"),
      /** The row's place since the incident's first, modulo STATE_CHECKPOINT: the last value is a checkpoint. */
      depth: h.integer("depth").notNull().default(0),
    },
    (t) => [h.index("incident_states_incident").on(t.incidentId, t.id), h.index("incident_states_capture").on(t.captureId)],
  );

  /**
   * One row per (version, kind): lets "only impact downgrades" be an indexed query. WITHOUT ROWID
   * (migration 0019), keyed in the order the kind lists read it; the kind is its code in
   * CHANGE_KIND_CODES and the observation time the version's, in milliseconds since 1970.
   */
  const versionKinds = h.table(
    "version_kinds",
    {
      kind: h.integer("kind").notNull(),
      observedMs: h.integer("observed_ms").notNull(),
      versionId: h.integer("version_id").notNull().references(() => incidentVersions.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull(),
    },
    (t) => [
      h.primaryKey({ columns: [t.kind, t.observedMs, t.versionId] }),
      h.index("version_kinds_vendor").on(t.vendorId, t.kind, t.observedMs, t.versionId),
      // The key's columns follow in every entry: a version's rows, for the cascade from its deletion.
      h.index("version_kinds_version").on(t.versionId),
    ],
  );

  /**
   * One row whose revision goes up (by trigger) whenever a version is written or removed or a
   * vendor changes: a rendered page is still current while the revision it was rendered at is.
   */
  const archiveRevision = h.table("archive_revision", {
    id: h.integer("id").primaryKey(),
    revision: h.integer("revision").notNull(),
  });

  /**
   * Whom each archive change concerns, newest last (written by the triggers that raise
   * archive_revision; they keep the newest 4,096): the web server evicts only the kept pages that
   * show that vendor, incident or change kind. A change with no vendor concerns every page.
   */
  const archiveChanges = h.table("archive_changes", {
    seq: h.id("seq"),
    vendorSlug: h.text("vendor_slug"),
    providerId: h.text("provider_id"),
    /** The version's kinds as incident_versions stores them (a JSON list); null for a vendor's change, which every kind feed shows. */
    kinds: h.jsonText("kinds"),
  });

  return {
    vendors,
    sources,
    pollState,
    captureBodies,
    captures,
    incidents,
    incidentComponents,
    incidentVersions,
    incidentSources,
    incidentStates,
    versionKinds,
    archiveRevision,
    archiveChanges,
  };
}
