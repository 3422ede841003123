import type Database from "better-sqlite3";
import type { CaptureOutcome } from "@/db/schema";

/** An incidents row as the write path reads it. */
export interface IncidentRow {
  id: number;
  providerId: string;
  presence: "listed" | "left-feed" | "deleted";
  source: string;
  observedHash: string;
  versionCount: number;
}

const INCIDENT_COLUMNS = `id, provider_id AS providerId, presence, source, observed_hash AS observedHash, version_count AS versionCount`;

/**
 * The write path's statements, prepared once per connection. Recording runs for every poll of
 * every vendor, so it skips query building; reads elsewhere use Drizzle's builder.
 */
function prepareWriteStatements(sqlite: Database.Database) {
  return {
    captureExists: sqlite.prepare<[number, string, string, string], { id: number; outcome: string; error: string | null }>(
      "SELECT id, outcome, error FROM captures WHERE vendor_id = ? AND source = ? AND observed_at = ? AND hash = ?",
    ),
    bodyExists: sqlite.prepare<[string], { hash: string }>("SELECT hash FROM capture_bodies WHERE hash = ?"),
    insertBody: sqlite.prepare<[string, number, Buffer]>(
      "INSERT INTO capture_bodies (hash, encoding, size, body) VALUES (?, 'gzip', ?, ?)",
    ),
    latestApplied: sqlite.prepare<[number], { at: string | null }>(
      "SELECT max(observed_at) AS at FROM captures WHERE vendor_id = ? AND outcome = 'ok'",
    ),
    insertCapture: sqlite.prepare<{
      vendorId: number; source: string; platform: string; observedAt: string; outcome: CaptureOutcome;
      error: string | null; size: number | null; hash: string; bodyHash: string | null; incidentCount: number | null; recordedAt: string;
    }, { id: number }>(
      `INSERT INTO captures (vendor_id, source, platform, observed_at, outcome, error, size, hash, body_hash, incident_count, recorded_at)
       VALUES (@vendorId, @source, @platform, @observedAt, @outcome, @error, @size, @hash, @bodyHash, @incidentCount, @recordedAt)
       RETURNING id`,
    ),
    setCaptureVersions: sqlite.prepare<[number, number]>("UPDATE captures SET version_count = ? WHERE id = ?"),
    markNeedsRederive: sqlite.prepare<[number]>("UPDATE vendors SET needs_rederive = 1 WHERE id = ?"),
    incidentsByProviderIds: sqlite.prepare<[number, string], IncidentRow>(
      `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE vendor_id = ? AND provider_id IN (SELECT value FROM json_each(?))`,
    ),
    incidentsListedBy: sqlite.prepare<[number, string], IncidentRow>(
      `SELECT ${INCIDENT_COLUMNS} FROM incidents WHERE vendor_id = ? AND source = ? AND presence = 'listed'`,
    ),
    lastSnapshot: sqlite.prepare<[number], { snapshot: string }>(
      "SELECT snapshot FROM incident_versions WHERE incident_id = ? ORDER BY seq DESC LIMIT 1",
    ),
    insertIncident: sqlite.prepare<IncidentValues & { vendorId: number; providerId: string; observedAt: string }, { id: number }>(
      `INSERT INTO incidents (vendor_id, provider_id, kind, title, status, impact, started_at, resolved_at, presence, source,
         first_seen_at, last_seen_at, observed_hash, version_count, last_changed_at)
       VALUES (@vendorId, @providerId, @kind, @title, @status, @impact, @startedAt, @resolvedAt, @presence, @source,
         @observedAt, @observedAt, @observedHash, 1, @observedAt)
       RETURNING id`,
    ),
    updateIncident: sqlite.prepare<IncidentValues & { id: number; versionCount: number; observedAt: string; seenAt: string | null }>(
      `UPDATE incidents SET kind = @kind, title = @title, status = @status, impact = @impact, started_at = @startedAt,
         resolved_at = @resolvedAt, presence = @presence, source = @source, observed_hash = @observedHash,
         version_count = @versionCount, last_changed_at = @observedAt, last_seen_at = coalesce(@seenAt, last_seen_at)
       WHERE id = @id`,
    ),
    touchObserved: sqlite.prepare<[string, string, string, number]>(
      "UPDATE incidents SET observed_hash = ?, source = ?, presence = 'listed', last_seen_at = ? WHERE id = ?",
    ),
    touchSeen: sqlite.prepare<[string, string]>(
      "UPDATE incidents SET last_seen_at = ? WHERE id IN (SELECT value FROM json_each(?))",
    ),
    insertVersion: sqlite.prepare<{
      incidentId: number; vendorId: number; seq: number; observedAt: string; hash: string; snapshot: string;
      changes: string; kinds: string; summary: string; headline: string; captureId: number;
    }, { id: number }>(
      `INSERT INTO incident_versions (incident_id, vendor_id, seq, observed_at, hash, snapshot, changes, kinds, summary, headline, capture_id)
       VALUES (@incidentId, @vendorId, @seq, @observedAt, @hash, @snapshot, @changes, @kinds, @summary, @headline, @captureId)
       RETURNING id`,
    ),
    insertKind: sqlite.prepare<[number, string, number, string]>(
      "INSERT INTO version_kinds (version_id, kind, vendor_id, observed_at) VALUES (?, ?, ?, ?)",
    ),
    deleteSearch: sqlite.prepare<[number]>("DELETE FROM incident_search WHERE rowid = ?"),
    insertSearch: sqlite.prepare<[number, string, string, string]>(
      "INSERT INTO incident_search (rowid, title, updates, postmortem) VALUES (?, ?, ?, ?)",
    ),
    deleteComponents: sqlite.prepare<[number]>("DELETE FROM incident_components WHERE incident_id = ?"),
    insertComponent: sqlite.prepare<[number, number, string, string]>(
      "INSERT OR IGNORE INTO incident_components (incident_id, vendor_id, component_id, name) VALUES (?, ?, ?, ?)",
    ),
    markPostmortem: sqlite.prepare<[string, number]>("UPDATE incidents SET postmortem_at = coalesce(postmortem_at, ?) WHERE id = ?"),
    countEditAfterResolution: sqlite.prepare<[number]>("UPDATE incidents SET edits_after_resolution = edits_after_resolution + 1 WHERE id = ?"),
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
