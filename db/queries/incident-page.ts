import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";
import type { Change } from "@/lib/change";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { IncidentState } from "@/lib/incident";

export interface VersionSummary {
  seq: number;
  observedAt: string;
  kinds: ChangeKindName[];
  summary: string;
}

export interface VersionDetail extends VersionSummary {
  hash: string;
  changes: Change[];
  snapshot: IncidentState;
}

export interface IncidentRecord {
  id: number;
  providerId: string;
  firstSeenAt: string;
  lastSeenAt: string;
  versionCount: number;
  /** The current state: the last version's snapshot. */
  current: IncidentState;
  versions: VersionSummary[];
}

const statements = preparedFor((sqlite) => ({
  incident: sqlite.prepare<[number, string], { id: number; providerId: string; firstSeenAt: string; lastSeenAt: string; versionCount: number }>(
    `SELECT id, provider_id AS providerId, first_seen_at AS firstSeenAt, last_seen_at AS lastSeenAt, version_count AS versionCount
     FROM incidents WHERE vendor_id = ? AND provider_id = ?`,
  ),
  versions: sqlite.prepare<[number], { seq: number; observedAt: string; kinds: string; summary: string }>(
    `SELECT seq, observed_at AS observedAt, kinds, summary FROM incident_versions WHERE incident_id = ? ORDER BY seq`,
  ),
  versionRefs: sqlite.prepare<[number], { incidentId: number; versionCount: number }>(
    "SELECT id AS incidentId, version_count AS versionCount FROM incidents WHERE vendor_id = ? ORDER BY id",
  ),
  version: sqlite.prepare<[number, number], { seq: number; observedAt: string; kinds: string; summary: string; hash: string; changes: string; snapshot: string }>(
    `SELECT seq, observed_at AS observedAt, kinds, summary, hash, changes, snapshot FROM incident_versions WHERE incident_id = ? AND seq = ?`,
  ),
}));

/** An incident with its current state and the list of its versions; undefined when unknown. */
export function getIncidentRecord(db: RedlineDb, vendorId: number, providerId: string): IncidentRecord | undefined {
  const st = statements(db);
  const row = st.incident.get(vendorId, providerId);
  if (!row) return undefined;
  const latest = st.version.get(row.id, row.versionCount);
  if (!latest) return undefined;
  const versions = st.versions.all(row.id).map((v) => ({ ...v, kinds: JSON.parse(v.kinds) as ChangeKindName[] }));
  return { ...row, current: JSON.parse(latest.snapshot) as IncidentState, versions };
}

/** One version of an incident, with its changes and full snapshot; undefined when unknown. */
export function getVersionDetail(db: RedlineDb, incidentId: number, seq: number): VersionDetail | undefined {
  const row = statements(db).version.get(incidentId, seq);
  if (!row) return undefined;
  return {
    seq: row.seq,
    observedAt: row.observedAt,
    kinds: JSON.parse(row.kinds) as ChangeKindName[],
    summary: row.summary,
    hash: row.hash,
    changes: JSON.parse(row.changes) as Change[],
    snapshot: JSON.parse(row.snapshot) as IncidentState,
  };
}

/** Every version of every incident of a vendor, as getVersionDetail takes them. */
export function listVersionRefs(db: RedlineDb, vendorId: number): Array<{ incidentId: number; seq: number }> {
  return statements(db).versionRefs.all(vendorId).flatMap((r) => Array.from({ length: r.versionCount }, (_, i) => ({ incidentId: r.incidentId, seq: i + 1 })));
}
