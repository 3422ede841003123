import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

export interface VendorPollStatus {
  slug: string;
  name: string;
  platform: string;
  enabled: boolean;
  url: string | null;
  lastPollAt: string | null;
  lastOutcome: string | null;
  lastError: string | null;
  /** While failing: the first failed capture since its last good one (repeated failures are one run). */
  failingSince: string | null;
  consecutiveFailures: number;
  backoffSeconds: number;
  nextPollAt: string | null;
  pushPollDueAt: string | null;
  /** Observations (polls, pushes, imported snapshots), and the capture rows (runs) holding them. */
  captures: number;
  captureRows: number;
  failedCaptures: number;
  /** Captures recorded with parts that could not be read (the rest of each was recorded). */
  capturesWithWarnings: number;
  versions: number;
}

const statements = statementsFor((c: Connection) => ({
  status: c.prepare<[], Omit<VendorPollStatus, "enabled"> & { enabled: number }>(
    `SELECT v.slug, v.name, v.platform, v.enabled, v.url, p.last_poll_at AS lastPollAt, p.last_outcome AS lastOutcome, p.last_error AS lastError,
       CASE WHEN p.last_outcome <> 'ok' THEN
         (SELECT min(c.observed_at) FROM captures c WHERE c.vendor_id = v.id AND c.outcome IN ('failed', 'invalid') AND c.observed_at > coalesce(
           (SELECT max(coalesce(o.last_observed_at, o.observed_at)) FROM captures o WHERE o.vendor_id = v.id AND o.outcome NOT IN ('failed', 'invalid')), ''))
       END AS failingSince,
       coalesce(p.consecutive_failures, 0) AS consecutiveFailures, coalesce(p.backoff_seconds, 0) AS backoffSeconds, p.next_poll_at AS nextPollAt,
       (SELECT due_at FROM push_polls q WHERE q.vendor_id = v.id) AS pushPollDueAt,
       (SELECT coalesce(sum(c.observations), 0) FROM captures c WHERE c.vendor_id = v.id) AS captures,
       (SELECT count(*) FROM captures c WHERE c.vendor_id = v.id) AS captureRows,
       (SELECT coalesce(sum(c.observations), 0) FROM captures c WHERE c.vendor_id = v.id AND c.outcome IN ('failed', 'invalid')) AS failedCaptures,
       (SELECT coalesce(sum(c.observations), 0) FROM captures c WHERE c.vendor_id = v.id AND c.warning_count > 0) AS capturesWithWarnings,
       (SELECT count(*) FROM incident_versions iv WHERE iv.vendor_id = v.id) AS versions
     FROM vendors v LEFT JOIN poll_state p ON p.vendor_id = v.id
     ORDER BY (p.last_outcome IS NOT NULL AND p.last_outcome <> 'ok') DESC, lower(v.name), v.slug`,
  ),
}));

/** Every vendor's polling: the last poll and its error, the backoff, what is next, and what was kept; failing ones first. */
export async function listVendorPollStatus(db: RedlineDb): Promise<VendorPollStatus[]> {
  return (await statements(db).status.all()).map((r) => ({ ...r, enabled: r.enabled === 1 }));
}

export interface ProcessStatus {
  process: string;
  /** Restarts since the window's start. */
  restarts: number;
  lastRestartAt: string | null;
  /** How the process exited before its last restart: "code 1, up 3 s", "SIGKILL, up 2 h". */
  lastCrash: string | null;
  lastStartedAt: string | null;
  /** When the supervisor last gave up on it (and stopped everything). */
  gaveUpAt: string | null;
}

// The summary's columns are snake_case: PostgreSQL folds an unquoted name, so only the outer aliases keep capitals.
const PROCESS_STATUS = (restarts: string) => `WITH summary AS (
       SELECT process, ${restarts} AS restarts, max(CASE WHEN event = 'restarting' THEN at END) AS last_restart_at,
         max(CASE WHEN event = 'restarting' THEN id END) AS last_restart_id, max(CASE WHEN event = 'started' THEN at END) AS last_started_at,
         max(CASE WHEN event = 'gave-up' THEN at END) AS gave_up_at
       FROM supervisor_events WHERE at >= ? GROUP BY process)
     SELECT process, restarts, last_restart_at AS lastRestartAt, last_started_at AS lastStartedAt, gave_up_at AS gaveUpAt,
       (SELECT x.detail FROM supervisor_events x WHERE x.process = summary.process AND x.event = 'exited' AND x.id < summary.last_restart_id
        ORDER BY x.id DESC LIMIT 1) AS lastCrash
     FROM summary ORDER BY process`;

const processStatements = statementsFor((c: Connection) => ({
  status: c.prepare<[string], ProcessStatus>(PROCESS_STATUS(c.dialect.queries.countWhere("event = 'restarting'"))),
}));

/** Each process `npm start` supervises, since `since`: how often it was restarted and why last, and whether the supervisor gave up. */
export async function listProcessStatus(db: RedlineDb, since: string): Promise<ProcessStatus[]> {
  return processStatements(db).status.all(since);
}

export interface CaptureWarnings {
  id: number;
  vendorSlug: string;
  source: string;
  observedAt: string;
  count: number;
  /** The first of them, as kept: where in the payload, and what was wrong. */
  warnings: Array<{ path: string; message: string }>;
}

const warningStatements = statementsFor((c: Connection) => ({
  recent: c.prepare<[number], { id: number; vendorSlug: string; source: string; observedAt: string; count: number; warnings: string | null }>(
    `SELECT c.id, v.slug AS vendorSlug, c.source, c.observed_at AS observedAt, c.warning_count AS count, c.warnings
     FROM captures c JOIN vendors v ON v.id = c.vendor_id WHERE c.warning_count > 0 ORDER BY c.observed_at DESC, c.id DESC LIMIT ?`,
  ),
}));

/** The latest captures that had parts Redline could not read, with what and where. */
export async function listCaptureWarnings(db: RedlineDb, limit: number): Promise<CaptureWarnings[]> {
  return (await warningStatements(db).recent.all(limit)).map((r) => ({ ...r, warnings: r.warnings ? (JSON.parse(r.warnings) as CaptureWarnings["warnings"]) : [] }));
}

/** Each polled or imported source of a vendor: when it was last observed, last served new content, and last failed. */
export interface SourceStatus {
  vendorSlug: string;
  source: string;
  platform: string;
  lastPolledAt: string | null;
  /** The first observation of its latest good snapshot: when it last served new content. */
  lastChangedAt: string | null;
  lastFailedAt: string | null;
  lastFailure: string | null;
  /** Observations recorded, and the capture rows (runs) that hold them. */
  observations: number;
  runs: number;
}

const sourceStatements = statementsFor((c: Connection) => ({
  status: c.prepare<[], SourceStatus>(
    `SELECT v.slug AS vendorSlug, s.url AS source, s.platform,
       (SELECT max(coalesce(c.last_observed_at, c.observed_at)) FROM captures c WHERE c.vendor_id = s.vendor_id AND c.source = s.url) AS lastPolledAt,
       (SELECT max(c.observed_at) FROM captures c WHERE c.vendor_id = s.vendor_id AND c.source = s.url AND c.outcome = 'ok') AS lastChangedAt,
       f.last_observed_at AS lastFailedAt, f.error AS lastFailure,
       (SELECT coalesce(sum(c.observations), 0) FROM captures c WHERE c.vendor_id = s.vendor_id AND c.source = s.url) AS observations,
       (SELECT count(*) FROM captures c WHERE c.vendor_id = s.vendor_id AND c.source = s.url) AS runs
     FROM sources s JOIN vendors v ON v.id = s.vendor_id
     LEFT JOIN captures f ON f.id = (SELECT c.id FROM captures c WHERE c.vendor_id = s.vendor_id AND c.source = s.url AND c.outcome IN ('failed', 'invalid')
       ORDER BY c.observed_at DESC LIMIT 1)
     ORDER BY lower(v.name), v.slug, s.url`,
  ),
}));

/** Every source of every vendor, with its last poll, last new content and last failure (with the error). */
export async function listSourceStatus(db: RedlineDb): Promise<SourceStatus[]> {
  return sourceStatements(db).status.all();
}

/** A vendor some of whose raw bodies retention removed: from when its raw captures are kept. */
export interface VendorRawRetention {
  vendorSlug: string;
  name: string;
  /** The first observation whose raw body is kept (null: none is); re-derivation covers only from it. */
  keptFrom: string | null;
  prunedCaptures: number;
  lastPrunedAt: string | null;
}

const retentionStatements = statementsFor((c: Connection) => ({
  pruned: c.prepare<[], VendorRawRetention>(
    `SELECT v.slug AS vendorSlug, v.name,
       (SELECT min(c.observed_at) FROM captures c WHERE c.vendor_id = v.id AND c.body_id IS NOT NULL) AS keptFrom,
       (SELECT count(*) FROM captures c WHERE c.vendor_id = v.id AND c.body_pruned_at IS NOT NULL) AS prunedCaptures,
       (SELECT max(c.body_pruned_at) FROM captures c WHERE c.vendor_id = v.id AND c.body_pruned_at IS NOT NULL) AS lastPrunedAt
     FROM vendors v WHERE EXISTS (SELECT 1 FROM captures c WHERE c.vendor_id = v.id AND c.body_pruned_at IS NOT NULL)
     ORDER BY lower(v.name), v.slug`,
  ),
}));

/** Every vendor with raw bodies removed by retention (REDLINE_KEEP_RAW_DAYS, prune-raw). */
export async function listRawRetention(db: RedlineDb): Promise<VendorRawRetention[]> {
  return retentionStatements(db).pruned.all();
}
