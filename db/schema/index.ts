import { sqliteColumns } from "@/db/schema/columns";
import { defineTables } from "@/db/schema/tables";

export { BODY_ENCODINGS, type BodyEncoding, CAPTURE_OUTCOMES, type CaptureOutcome, PRESENCE_VALUES } from "@/db/schema/archive-tables";
export { MESSAGE_KINDS, MESSAGE_STATUSES, SUBSCRIPTION_STATUSES } from "@/db/schema/notification-tables";
export { DERIVATION_JOB_STATUSES, type DerivationJobStatus } from "@/db/schema/operation-tables";

/** The SQLite tables (the PostgreSQL ones are db/schema/postgres.ts, from the same description). */
export const {
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
  components,
  componentStates,
  quietDegradations,
  derivationJobs,
  versionKinds,
  archiveRevision,
  archiveChanges,
  hookDeliveries,
  pushPolls,
  hostSlots,
  throttleTelemetry,
  supervisorEvents,
  operatorSessions,
  watchlists,
  watchlistMembers,
  subscriptions,
  outboxVersions,
  notifications,
  notificationMessages,
  deliveryAttempts,
} = defineTables(sqliteColumns);

/**
 * Each incident's indexed text (title, update texts, postmortem) compressed, the content of the
 * external-content FTS5 table incident_search through the view incident_search_source; triggers
 * keep the index in step with it (migration 0018, db/search/search-text.ts). SQLite only: PostgreSQL's
 * incident_search keeps the text in plain columns, which it compresses itself (decision 0041).
 */
export const incidentSearchText = sqliteColumns.table("incident_search_text", {
  incidentId: sqliteColumns.integer("incident_id").primaryKey(),
  body: sqliteColumns.blob("body").notNull(),
});
