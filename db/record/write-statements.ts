import type { Connection, Nullable, RedlineDb, RowsStatement } from "@/db/driver/database";
import type { StoredPatch } from "@/db/history/json-deltas";
import type { PackedJson } from "@/db/history/packed-json";
import { statementsFor } from "@/db/driver/prepared";
import type { CaptureOutcome } from "@/db/schema";
import { changeKindCode } from "@/lib/change-kinds";

/** An incident as the write path looks it up: its record, and whether this source listed it and saw it so. */
export interface LightIncidentRow {
  id: number;
  providerId: string;
  presence: string;
  listed: number | null;
  hash: string | null;
}

export interface IncidentStateRow {
  id: number;
  providerId: string;
  source: string;
  presence: "listed" | "left-feed" | "deleted";
  firstSeenAt: string;
  lastChangedAt: string;
  versionCount: number;
  postmortemAt: string | null;
  editsAfterResolution: number;
  state: PackedJson | null;
  /** The latest logged row's id, capture, delta and depth (null when none is logged). */
  stateId: number | null;
  stateCaptureId: number | null;
  statePatch: StoredPatch | null;
  stateDepth: number | null;
}

export interface CaptureRow {
  id: number;
  vendorId: number;
  source: string;
  platform: string;
  observedAt: string;
  outcome: CaptureOutcome;
  error: string | null;
  hash: string;
  bodyHash: string | null;
  /** The run's last observation (its first is observedAt) and how many it holds. */
  lastObservedAt: string;
  observations: number;
}

/**
 * The incident's current record is its latest logged state (none for incidents archived before
 * records), read with where that row sits in the log, which logging the next record needs.
 */
const STATE_COLUMNS = `i.id, i.provider_id AS providerId, i.source, i.presence, i.first_seen_at AS firstSeenAt, i.last_changed_at AS lastChangedAt,
  i.version_count AS versionCount, i.postmortem_at AS postmortemAt, i.edits_after_resolution AS editsAfterResolution,
  l.state, l.id AS stateId, l.capture_id AS stateCaptureId, l.patch AS statePatch, l.depth AS stateDepth`;
// A kept body is always the body of the capture's hash.
const CAPTURE_COLUMNS = `id, vendor_id AS vendorId, source, platform, observed_at AS observedAt, outcome, error, hash,
  CASE WHEN body_id IS NULL THEN NULL ELSE hash END AS bodyHash,
  coalesce(last_observed_at, observed_at) AS lastObservedAt, observations`;

/**
 * The write path's statements, prepared once per connection. Recording runs for every poll of
 * every vendor, so it skips query building; reads elsewhere use Drizzle's builder.
 */
function prepareWriteStatements(c: Connection) {
  const d = c.dialect.record;
  // A source's standing before the capture (@observedAt, @keySource, @hash) as two columns; `when`: only where it holds, else nulls.
  const STANDING = (source: string, when?: string) => {
    const only = (sql: string) => (when ? `CASE WHEN ${when} THEN ${sql} END` : sql);
    const before = `(observed_at, source, hash) < (@observedAt, @keySource, @hash) AND observed_at <= @observedAt ORDER BY observed_at DESC LIMIT 1`;
    return `${only(`(SELECT ${d.least("coalesce(last_observed_at, observed_at)", "@observedAt")} FROM captures${d.indexedBy("captures_identity")}
         WHERE vendor_id = @vendorId AND source = ${source} AND outcome IN ('ok', 'not-modified') AND ${before})`)} AS lastLiveAt,
       ${only(`(SELECT window_start FROM captures${d.indexedBy("captures_identity")} WHERE vendor_id = @vendorId AND source = ${source} AND outcome = 'ok' AND ${before})`)} AS windowStart`;
  };
  return {
    insertCapture: c.prepare<{
      vendorId: number; source: string; platform: string; observedAt: string; outcome: CaptureOutcome; error: string | null;
      size: number | null; hash: string; bodyId: number | null; incidentCount: number | null; recordedAt: string;
      warnings: string | null; warningCount: number; versionCount: number; windowStart: string | null;
    }, { id: number }>(
      `INSERT INTO captures (vendor_id, source, platform, observed_at, last_observed_at, outcome, error, size, hash, body_id, incident_count, recorded_at,
         warnings, warning_count, version_count, window_start)
       VALUES (@vendorId, @source, @platform, @observedAt, @observedAt, @outcome, @error, @size, @hash, @bodyId, @incidentCount, @recordedAt,
         @warnings, @warningCount, @versionCount, @windowStart)
       ON CONFLICT (vendor_id, source, observed_at, hash) DO NOTHING
       RETURNING id`,
    ),
    // The source's run at or before a time, this content's first when several start then: a capture recorded before, exactly or inside a run.
    recordedAtOrBefore: c.prepare<[number, string, string, string], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? AND observed_at <= ?
       ORDER BY observed_at DESC, CASE WHEN hash = ? THEN 0 ELSE 1 END, hash DESC LIMIT 1`,
    ),
    okRunsSpanning: c.prepare<[number, string, string], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND observations > 1 AND last_observed_at > ? AND observed_at < ? AND outcome = 'ok'`,
    ),
    extendRun: c.prepare<[string, number]>("UPDATE captures SET last_observed_at = ?, observations = observations + 1 WHERE id = ?"),
    endRunAtFirst: c.prepare<[number]>("UPDATE captures SET last_observed_at = observed_at, observations = 1 WHERE id = ?"),
    copyRunTail: c.prepare<[string, string, number, string, number]>(
      `INSERT INTO captures (vendor_id, source, platform, observed_at, last_observed_at, observations, outcome, error, size, hash, body_id,
         incident_count, recorded_at, warnings, warning_count, window_start)
       SELECT vendor_id, source, platform, ?, ?, CAST(? AS INTEGER), outcome, error, size, hash, body_id, incident_count, ?, warnings, warning_count, window_start
       FROM captures WHERE id = ?`,
    ),
    // What placing a capture needs, in one statement: of its vendor, the capture applied last and
    // where its run ends, who last read the sources' standings, the derivation marker, the job under
    // way, whether the capture's source is registered; of its source, the run at or before the
    // capture and whether it is the source's latest (none starts after that time), or nulls.
    captureContext: c.prepare<{ vendorId: number; source: string; at: string }, {
      appliedObservedAt: string | null; appliedSource: string | null; appliedHash: string | null; appliedLastObservedAt: string | null;
      standingsReadAt: string | null; standingsReadBy: string | null; derivedWith: string | null; jobStatus: string | null; sourceKnown: number;
    } & Nullable<CaptureRow & { latest: number }>>(
      `SELECT v.applied_observed_at AS appliedObservedAt, v.applied_source AS appliedSource, v.applied_hash AS appliedHash,
         (SELECT coalesce(a.last_observed_at, a.observed_at) FROM captures a
          WHERE a.vendor_id = v.id AND a.source = v.applied_source AND a.observed_at = v.applied_observed_at AND a.hash = v.applied_hash) AS appliedLastObservedAt,
         v.standings_read_at AS standingsReadAt, v.standings_read_by AS standingsReadBy, v.derived_with AS derivedWith,
         (SELECT j.status FROM derivation_jobs j WHERE j.vendor_id = v.id AND j.status IN ('queued', 'building', 'swapping') ORDER BY j.id LIMIT 1) AS jobStatus,
         CASE WHEN EXISTS (SELECT 1 FROM sources s WHERE s.vendor_id = v.id AND s.url = @source) THEN 1 ELSE 0 END AS sourceKnown,
         r.*
       FROM vendors v LEFT JOIN (
         SELECT ${CAPTURE_COLUMNS},
           CASE WHEN EXISTS (SELECT 1 FROM captures l WHERE l.vendor_id = @vendorId AND l.source = @source AND l.observed_at > @at) THEN 0 ELSE 1 END AS latest
         FROM captures WHERE vendor_id = @vendorId AND source = @source AND observed_at <= @at ORDER BY observed_at DESC, hash DESC LIMIT 1
       ) r ON 1 = 1
       WHERE v.id = @vendorId`,
    ),
    registerSource: c.prepare<[number, string, string]>(
      "INSERT INTO sources (vendor_id, url, platform) VALUES (?, ?, ?) ON CONFLICT (vendor_id, url) DO NOTHING",
    ),
    setCaptureDerived: c.prepare<[number, string | null, number]>("UPDATE captures SET version_count = ?, window_start = ? WHERE id = ?"),
    setCaptureRead: c.prepare<{ id: number; outcome: CaptureOutcome; error: string | null; incidentCount: number | null; warnings: string | null; warningCount: number }>(
      `UPDATE captures SET outcome = @outcome, error = @error, incident_count = @incidentCount, warnings = @warnings, warning_count = @warningCount
       WHERE id = @id`,
    ),
    applied: c.prepare<[number], { observedAt: string | null; source: string | null; hash: string | null }>(
      "SELECT applied_observed_at AS observedAt, applied_source AS source, applied_hash AS hash FROM vendors WHERE id = ?",
    ),
    // The capture applied last and, when it read the standings of the vendor's other sources, who read them last (never backwards).
    setApplied: c.prepare<{ observedAt: string | null; source: string | null; hash: string | null; read: number; id: number }>(
      `UPDATE vendors SET applied_observed_at = @observedAt, applied_source = @source, applied_hash = @hash,
         standings_read_at = CASE WHEN @read = 1 AND coalesce(standings_read_at, '') <= @observedAt THEN @observedAt ELSE standings_read_at END,
         standings_read_by = CASE WHEN @read = 1 AND coalesce(standings_read_at, '') <= @observedAt THEN @source ELSE standings_read_by END
       WHERE id = @id`,
    ),
    captureKeysAfterId: c.prepare<[number, number], { observedAt: string; source: string; hash: string }>(
      "SELECT observed_at AS observedAt, source, hash FROM captures WHERE vendor_id = ? AND id > ? ORDER BY observed_at, source, hash",
    ),
    capturePlatforms: c.prepare<[number], { platform: string }>("SELECT DISTINCT platform FROM captures WHERE vendor_id = ?"),
    captureCount: c.prepare<[number], { n: number }>("SELECT count(*) AS n FROM captures WHERE vendor_id = ?"),
    captureCountThrough: c.prepare<[number, string, string, string], { n: number }>(
      "SELECT count(*) AS n FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) <= (?, ?, ?)",
    ),
    lastObservation: c.prepare<[number], { at: string | null }>("SELECT max(coalesce(last_observed_at, observed_at)) AS at FROM captures WHERE vendor_id = ?"),
    vendorVersionCount: c.prepare<[number], { n: number }>("SELECT count(*) AS n FROM incident_versions WHERE vendor_id = ?"),
    // Where a source stood just before a capture: its last live observation (a run that reaches
    // past the capture, one that arrived late, is taken as observing up to it) and the window its
    // last good capture read.
    standing: c.prepare<{ vendorId: number; source: string; observedAt: string; keySource: string; hash: string }, { lastLiveAt: string | null; windowStart: string | null }>(
      `SELECT ${STANDING("@source")}`,
    ),
    // The vendor's sources, the capture's own with its standing (the others' are read when needed).
    sourcesWithOwnStanding: c.prepare<{ vendorId: number; observedAt: string; keySource: string; hash: string }, { source: string; platform: string; lastLiveAt: string | null; windowStart: string | null }>(
      `SELECT s.url AS source, s.platform, ${STANDING("s.url", "s.url = @keySource")} FROM sources s WHERE s.vendor_id = @vendorId`,
    ),
    // In one statement: the incidents a capture names (`ids`), with this source's listing of each
    // (kind 'named'); when `withListed` is 1, those the source lists now (kind 'listed', read from
    // the listing index alone); and those listed that were first seen after `since` (kind 'appeared', none when it is null).
    lightRows: c.prepare<{ source: string; vendorId: number; ids: string; withListed: number; since: string | null }, LightIncidentRow & { kind: "named" | "listed" | "appeared" }>(
      `SELECT i.id, i.provider_id AS providerId, i.presence, s.listed, s.hash, 'named' AS kind FROM incidents i
       LEFT JOIN incident_sources s ON s.incident_id = i.id AND s.source = @source
       WHERE i.vendor_id = @vendorId AND i.provider_id IN (${c.dialect.queries.listedValues("ids")})
       UNION ALL
       SELECT i.id, i.provider_id, i.presence, NULL, NULL, 'listed' FROM incident_sources s JOIN incidents i ON i.id = s.incident_id
       WHERE @withListed = 1 AND s.vendor_id = @vendorId AND s.source = @source AND ${c.dialect.operations.isTrue("s.listed")}
       UNION ALL
       SELECT a.id, a.provider_id, a.presence, NULL, NULL, 'appeared' FROM incidents a
       WHERE a.vendor_id = @vendorId AND a.presence = 'listed' AND a.first_seen_at > @since`,
    ),
    incidentStates: c.prepare<{ ids: string }, IncidentStateRow>(
      `SELECT ${STATE_COLUMNS} FROM incidents i
       LEFT JOIN incident_states l ON l.id = (SELECT max(s.id) FROM incident_states s WHERE s.incident_id = i.id)
       WHERE i.id IN (${c.dialect.queries.listedValues("ids", "bigint")})`,
    ),
    lastSnapshot: c.prepare<[number], { snapshot: PackedJson }>(
      "SELECT snapshot FROM incident_versions WHERE incident_id = ? ORDER BY seq DESC LIMIT 1",
    ),
    insertIncident: c.prepare<Omit<IncidentValues, "state"> & { vendorId: number; providerId: string }, { id: number }>(
      `INSERT INTO incidents (vendor_id, provider_id, kind, title, status, impact, started_at, resolved_at, presence, source,
         first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at, postmortem_at, edits_after_resolution)
       VALUES (@vendorId, @providerId, @kind, @title, @status, @impact, @startedAt, @resolvedAt, @presence, @source,
         @firstSeenAt, @seenAt, @observedHash, @versionCount, @lastChangedAt, @postmortemAt, @editsAfterResolution)
       RETURNING id`,
    ),
    updateIncident: c.prepare<Omit<IncidentValues, "state"> & { id: number }>(
      `UPDATE incidents SET kind = @kind, title = @title, status = @status, impact = @impact, started_at = @startedAt,
         resolved_at = @resolvedAt, presence = @presence, source = @source, observed_hash = @observedHash,
         first_seen_at = @firstSeenAt, version_count = @versionCount, last_changed_at = @lastChangedAt,
         postmortem_at = @postmortemAt, edits_after_resolution = @editsAfterResolution,
         last_seen_at = ${c.dialect.operations.greatest("last_seen_at", "@seenAt")}
       WHERE id = @id`,
    ),
    touchSeen: c.prepare<{ seenAt: string; vendorId: number; ids: string }>(
      `UPDATE incidents SET last_seen_at = ${c.dialect.operations.greatest("last_seen_at", "@seenAt")}
       WHERE vendor_id = @vendorId AND provider_id IN (${c.dialect.queries.listedValues("ids")})`,
    ),
    // Incidents new and known, in one statement: a known one's last sighting only moves forward.
    incidentRows: {
      into: `INSERT INTO incidents (vendor_id, provider_id, kind, title, status, impact, started_at, resolved_at, presence, source,
         first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at, postmortem_at, edits_after_resolution)`,
      row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      tail: `ON CONFLICT (vendor_id, provider_id) DO UPDATE SET kind = excluded.kind, title = excluded.title, status = excluded.status,
         impact = excluded.impact, started_at = excluded.started_at, resolved_at = excluded.resolved_at, presence = excluded.presence,
         source = excluded.source, observed_hash = excluded.observed_hash, first_seen_at = excluded.first_seen_at,
         version_count = excluded.version_count, last_changed_at = excluded.last_changed_at, postmortem_at = excluded.postmortem_at,
         edits_after_resolution = excluded.edits_after_resolution,
         last_seen_at = ${c.dialect.operations.greatest("incidents.last_seen_at", "excluded.last_seen_at")}
       RETURNING id, provider_id AS providerId`,
    } satisfies RowsStatement,
    incidentSourceRows: {
      into: "INSERT INTO incident_sources (incident_id, vendor_id, source, listed, hash)",
      row: "(?, ?, ?, ?, ?)",
      tail: "ON CONFLICT (incident_id, source) DO UPDATE SET listed = excluded.listed, hash = excluded.hash",
    } satisfies RowsStatement,
    versionRows: {
      into: "INSERT INTO incident_versions (incident_id, vendor_id, seq, observed_at, hash, snapshot, patch, kinds, content, text_version, capture_id)",
      row: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
      tail: "RETURNING id, incident_id AS incidentId",
    } satisfies RowsStatement,
    kindRows: {
      into: "INSERT INTO version_kinds (kind, observed_ms, version_id, vendor_id)",
      row: `(?, ${c.dialect.queries.observedMs("?")}, ?, ?)`,
    } satisfies RowsStatement,
    upsertIncidentSource: c.prepare<[number, number, string, number, string | null]>(
      `INSERT INTO incident_sources (incident_id, vendor_id, source, listed, hash) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (incident_id, source) DO UPDATE SET listed = excluded.listed, hash = excluded.hash`,
    ),
    insertVersion: c.prepare<VersionValues, { id: number }>(
      `INSERT INTO incident_versions (incident_id, vendor_id, seq, observed_at, hash, snapshot, patch, kinds, content, text_version, capture_id)
       VALUES (@incidentId, @vendorId, @seq, @observedAt, @hash, @snapshot, @patch, @kinds, @content, @textVersion, @captureId)
       RETURNING id`,
    ),
    deleteComponentsOf: c.prepare<{ ids: string }>(`DELETE FROM incident_components WHERE incident_id IN (${c.dialect.operations.listedIds("ids")})`),
    deleteListings: c.prepare<[number]>("DELETE FROM incident_sources WHERE incident_id = ?"),
    deleteIncident: c.prepare<[number]>("DELETE FROM incidents WHERE id = ?"),
    capturesFrom: c.prepare<[number, string, string, string, number], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) >= (?, ?, ?)
       ORDER BY observed_at, source, hash LIMIT ?`,
    ),
    capturesAfter: c.prepare<[number, string, string, string, number], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) > (?, ?, ?)
       ORDER BY observed_at, source, hash LIMIT ?`,
    ),
  };
}

export interface IncidentValues {
  kind: string;
  title: string;
  status: string | null;
  impact: string | null;
  startedAt: string | null;
  resolvedAt: string | null;
  presence: string;
  source: string;
  observedHash: string;
  firstSeenAt: string;
  seenAt: string;
  versionCount: number;
  lastChangedAt: string;
  postmortemAt: string | null;
  editsAfterResolution: number;
  /** The record as JSON, logged in incident_states. */
  state: string;
}

/** A version row as written (db/history/version-states.ts decides snapshot and patch). */
export interface VersionValues {
  incidentId: number;
  vendorId: number;
  seq: number;
  observedAt: string;
  hash: string;
  snapshot: PackedJson | null;
  patch: StoredPatch | null;
  kinds: string;
  /** db/history/version-content.ts packVersionContent. */
  content: Buffer;
  textVersion: number;
  captureId: number;
}

export type WriteStatements = ReturnType<typeof prepareWriteStatements>;

export const writeStatements: (db: RedlineDb) => WriteStatements = statementsFor(prepareWriteStatements);

/** The version_kinds rows (`kindRows`) indexing a written version under each of its kinds. */
export function versionKindRows(versionId: number, kinds: readonly string[], vendorId: number, observedAt: string): unknown[][] {
  const rows: unknown[][] = [];
  for (const kind of kinds) {
    const code = changeKindCode(kind);
    // A name that is no kind (written by an older Redline) could never be asked for.
    if (code !== undefined) rows.push([code, observedAt, versionId, vendorId]);
  }
  return rows;
}
