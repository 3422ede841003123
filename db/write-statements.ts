import type Database from "better-sqlite3";
import type { StoredPatch } from "@/db/json-deltas";
import { observedMsOf } from "@/db/layout/side-tables";
import type { PackedJson } from "@/db/packed-json";
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

/** The incident's current record is its latest logged state (none for incidents archived before records). */
const STATE_COLUMNS = `id, provider_id AS providerId, source, presence, first_seen_at AS firstSeenAt, last_changed_at AS lastChangedAt,
  version_count AS versionCount, postmortem_at AS postmortemAt, edits_after_resolution AS editsAfterResolution,
  (SELECT s.state FROM incident_states s WHERE s.incident_id = incidents.id ORDER BY s.id DESC LIMIT 1) AS state`;
// A kept body is always the body of the capture's hash.
const CAPTURE_COLUMNS = `id, vendor_id AS vendorId, source, platform, observed_at AS observedAt, outcome, error, hash,
  CASE WHEN body_id IS NULL THEN NULL ELSE hash END AS bodyHash,
  coalesce(last_observed_at, observed_at) AS lastObservedAt, observations`;

/**
 * The write path's statements, prepared once per connection. Recording runs for every poll of
 * every vendor, so it skips query building; reads elsewhere use Drizzle's builder.
 */
function prepareWriteStatements(sqlite: Database.Database) {
  return {
    captureExists: sqlite.prepare<[number, string, string, string], { id: number; outcome: string; error: string | null }>(
      "SELECT id, outcome, error FROM captures WHERE vendor_id = ? AND source = ? AND observed_at = ? AND hash = ?",
    ),
    insertCapture: sqlite.prepare<{
      vendorId: number; source: string; platform: string; observedAt: string; outcome: CaptureOutcome; error: string | null;
      size: number | null; hash: string; bodyId: number | null; incidentCount: number | null; recordedAt: string;
      warnings: string | null; warningCount: number;
    }, { id: number }>(
      `INSERT INTO captures (vendor_id, source, platform, observed_at, last_observed_at, outcome, error, size, hash, body_id, incident_count, recorded_at, warnings, warning_count)
       VALUES (@vendorId, @source, @platform, @observedAt, @observedAt, @outcome, @error, @size, @hash, @bodyId, @incidentCount, @recordedAt, @warnings, @warningCount)
       RETURNING id`,
    ),
    sourceLatest: sqlite.prepare<[number, string], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? ORDER BY observed_at DESC, hash DESC LIMIT 1`,
    ),
    sourceAtOrBefore: sqlite.prepare<[number, string, string], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? AND observed_at <= ? ORDER BY observed_at DESC, hash DESC LIMIT 1`,
    ),
    captureByKey: sqlite.prepare<[number, string, string, string], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND source = ? AND observed_at = ? AND hash = ?`,
    ),
    okRunsSpanning: sqlite.prepare<[number, string, string], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND observations > 1 AND last_observed_at > ? AND observed_at < ? AND outcome = 'ok'`,
    ),
    extendRun: sqlite.prepare<[string, number]>("UPDATE captures SET last_observed_at = ?, observations = observations + 1 WHERE id = ?"),
    endRunAtFirst: sqlite.prepare<[number]>("UPDATE captures SET last_observed_at = observed_at, observations = 1 WHERE id = ?"),
    copyRunTail: sqlite.prepare<[string, string, number, string, number]>(
      `INSERT INTO captures (vendor_id, source, platform, observed_at, last_observed_at, observations, outcome, error, size, hash, body_id,
         incident_count, recorded_at, warnings, warning_count, window_start)
       SELECT vendor_id, source, platform, ?, ?, ?, outcome, error, size, hash, body_id, incident_count, ?, warnings, warning_count, window_start
       FROM captures WHERE id = ?`,
    ),
    standingsRead: sqlite.prepare<[number], { at: string | null; by: string | null }>(
      "SELECT standings_read_at AS at, standings_read_by AS by FROM vendors WHERE id = ?",
    ),
    markStandingsRead: sqlite.prepare<{ at: string; by: string; id: number }>(
      "UPDATE vendors SET standings_read_at = @at, standings_read_by = @by WHERE id = @id AND coalesce(standings_read_at, '') <= @at",
    ),
    registerSource: sqlite.prepare<[number, string, string]>(
      "INSERT INTO sources (vendor_id, url, platform) VALUES (?, ?, ?) ON CONFLICT (vendor_id, url) DO NOTHING",
    ),
    setCaptureDerived: sqlite.prepare<[number, string | null, number]>("UPDATE captures SET version_count = ?, window_start = ? WHERE id = ?"),
    setCaptureRead: sqlite.prepare<{ id: number; outcome: CaptureOutcome; error: string | null; incidentCount: number | null; warnings: string | null; warningCount: number }>(
      `UPDATE captures SET outcome = @outcome, error = @error, incident_count = @incidentCount, warnings = @warnings, warning_count = @warningCount
       WHERE id = @id`,
    ),
    applied: sqlite.prepare<[number], { observedAt: string | null; source: string | null; hash: string | null }>(
      "SELECT applied_observed_at AS observedAt, applied_source AS source, applied_hash AS hash FROM vendors WHERE id = ?",
    ),
    setApplied: sqlite.prepare<[string | null, string | null, string | null, number]>(
      "UPDATE vendors SET applied_observed_at = ?, applied_source = ?, applied_hash = ? WHERE id = ?",
    ),
    derivedWith: sqlite.prepare<[number], { derivedWith: string | null }>("SELECT derived_with AS derivedWith FROM vendors WHERE id = ?"),
    vendorSources: sqlite.prepare<[number], { source: string; platform: string }>("SELECT url AS source, platform FROM sources WHERE vendor_id = ?"),
    // A run that reaches past the capture (one that arrived late) is taken as observing up to it.
    lastLive: sqlite.prepare<[string, number, string, string, string, string, string], { observedAt: string }>(
      `SELECT min(coalesce(last_observed_at, observed_at), ?) AS observedAt FROM captures INDEXED BY captures_identity WHERE vendor_id = ? AND source = ? AND outcome IN ('ok', 'not-modified')
         AND (observed_at, source, hash) < (?, ?, ?) AND observed_at <= ? ORDER BY observed_at DESC LIMIT 1`,
    ),
    lastWindow: sqlite.prepare<[number, string, string, string, string, string], { windowStart: string | null }>(
      `SELECT window_start AS windowStart FROM captures INDEXED BY captures_identity WHERE vendor_id = ? AND source = ? AND outcome = 'ok'
         AND (observed_at, source, hash) < (?, ?, ?) AND observed_at <= ? ORDER BY observed_at DESC LIMIT 1`,
    ),
    lightRows: sqlite.prepare<[string, number, string], LightIncidentRow>(
      `SELECT i.id, i.provider_id AS providerId, i.presence, s.listed, s.hash FROM incidents i
       LEFT JOIN incident_sources s ON s.incident_id = i.id AND s.source = ?
       WHERE i.vendor_id = ? AND i.provider_id IN (SELECT value FROM json_each(?))`,
    ),
    listedBy: sqlite.prepare<[number, string], { id: number; providerId: string }>(
      `SELECT i.id, i.provider_id AS providerId FROM incident_sources s JOIN incidents i ON i.id = s.incident_id
       WHERE s.vendor_id = ? AND s.source = ? AND s.listed = 1`,
    ),
    appearedSince: sqlite.prepare<[number, string], { id: number; providerId: string }>(
      "SELECT id, provider_id AS providerId FROM incidents WHERE vendor_id = ? AND presence = 'listed' AND first_seen_at > ?",
    ),
    incidentStates: sqlite.prepare<[string], IncidentStateRow>(`SELECT ${STATE_COLUMNS} FROM incidents WHERE id IN (SELECT value FROM json_each(?))`),
    lastSnapshot: sqlite.prepare<[number], { snapshot: PackedJson }>(
      "SELECT snapshot FROM incident_versions WHERE incident_id = ? ORDER BY seq DESC LIMIT 1",
    ),
    insertIncident: sqlite.prepare<Omit<IncidentValues, "state"> & { vendorId: number; providerId: string }, { id: number }>(
      `INSERT INTO incidents (vendor_id, provider_id, kind, title, status, impact, started_at, resolved_at, presence, source,
         first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at, postmortem_at, edits_after_resolution)
       VALUES (@vendorId, @providerId, @kind, @title, @status, @impact, @startedAt, @resolvedAt, @presence, @source,
         @firstSeenAt, @seenAt, @observedHash, @versionCount, @lastChangedAt, @postmortemAt, @editsAfterResolution)
       RETURNING id`,
    ),
    updateIncident: sqlite.prepare<Omit<IncidentValues, "state"> & { id: number }>(
      `UPDATE incidents SET kind = @kind, title = @title, status = @status, impact = @impact, started_at = @startedAt,
         resolved_at = @resolvedAt, presence = @presence, source = @source, observed_hash = @observedHash,
         first_seen_at = @firstSeenAt, version_count = @versionCount, last_changed_at = @lastChangedAt,
         postmortem_at = @postmortemAt, edits_after_resolution = @editsAfterResolution,
         last_seen_at = max(last_seen_at, @seenAt)
       WHERE id = @id`,
    ),
    touchSeen: sqlite.prepare<[string, number, string]>(
      "UPDATE incidents SET last_seen_at = max(last_seen_at, ?) WHERE vendor_id = ? AND provider_id IN (SELECT value FROM json_each(?))",
    ),
    upsertIncidentSource: sqlite.prepare<[number, number, string, number, string | null]>(
      `INSERT INTO incident_sources (incident_id, vendor_id, source, listed, hash) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (incident_id, source) DO UPDATE SET listed = excluded.listed, hash = excluded.hash`,
    ),
    insertVersion: sqlite.prepare<VersionValues, { id: number }>(
      `INSERT INTO incident_versions (incident_id, vendor_id, seq, observed_at, hash, snapshot, patch, kinds, content, text_version, capture_id)
       VALUES (@incidentId, @vendorId, @seq, @observedAt, @hash, @snapshot, @patch, @kinds, @content, @textVersion, @captureId)
       RETURNING id`,
    ),
    insertKind: sqlite.prepare<[number, string, number, number]>(
      `INSERT INTO version_kinds (kind, observed_ms, version_id, vendor_id) VALUES (?, ${observedMsOf("?")}, ?, ?)`,
    ),
    // incident_search_text's triggers keep the full-text index in step (migration 0018).
    deleteSearch: sqlite.prepare<[number]>("DELETE FROM incident_search_text WHERE incident_id = ?"),
    insertSearch: sqlite.prepare<[number, string, string, string]>(
      "INSERT INTO incident_search_text (incident_id, body) VALUES (?, redline_search_pack(?, ?, ?))",
    ),
    // What a version took away, keyed by its id; a trigger deletes it with the version (migration 0022).
    insertRemovedText: sqlite.prepare<[number, string]>("INSERT INTO version_search (rowid, removed) VALUES (?, ?)"),
    deleteComponents: sqlite.prepare<[number]>("DELETE FROM incident_components WHERE incident_id = ?"),
    insertComponent: sqlite.prepare<[number, number, string, string]>(
      "INSERT OR IGNORE INTO incident_components (incident_id, vendor_id, component_id, name) VALUES (?, ?, ?, ?)",
    ),
    capturesFrom: sqlite.prepare<[number, string, string, string, number], CaptureRow>(
      `SELECT ${CAPTURE_COLUMNS} FROM captures WHERE vendor_id = ? AND (observed_at, source, hash) >= (?, ?, ?)
       ORDER BY observed_at, source, hash LIMIT ?`,
    ),
    capturesAfter: sqlite.prepare<[number, string, string, string, number], CaptureRow>(
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

/** A version row as written (db/version-states.ts decides snapshot and patch). */
export interface VersionValues {
  incidentId: number;
  vendorId: number;
  seq: number;
  observedAt: string;
  hash: string;
  snapshot: PackedJson | null;
  patch: StoredPatch | null;
  kinds: string;
  /** db/version-content.ts packVersionContent. */
  content: Buffer;
  textVersion: number;
  captureId: number;
}

export type WriteStatements = ReturnType<typeof prepareWriteStatements>;

const cache = new WeakMap<Database.Database, WriteStatements>();

export function writeStatements(sqlite: Database.Database): WriteStatements {
  let statements = cache.get(sqlite);
  if (!statements) {
    statements = prepareWriteStatements(sqlite);
    cache.set(sqlite, statements);
  }
  return statements;
}

/** Index a written version under each of its kinds. */
export function insertVersionKinds(st: WriteStatements, versionId: number, kinds: readonly string[], vendorId: number, observedAt: string): void {
  for (const kind of kinds) {
    const code = changeKindCode(kind);
    // A name that is no kind (written by an older Redline) could never be asked for.
    if (code !== undefined) st.insertKind.run(code, observedAt, versionId, vendorId);
  }
}
