import type { Connection, RedlineDb } from "@/db/driver/database";
import type { WatchScope } from "@/db/queries/changes";
import { statementsFor } from "@/db/driver/prepared";
import { unpackVersionContent } from "@/db/history/version-content";
import { readVersionState } from "@/db/history/version-states";
import type { Change } from "@/lib/change";
import type { MaintenanceRecord } from "@/lib/maintenance-calendar";

/** Maintenances read per calendar before the window bound is applied: the most recently changed first. */
const CANDIDATES_MAX = 2_000;

export interface MaintenanceCandidate extends MaintenanceRecord {
  incidentId: number;
  versionCount: number;
}

type Row = { incidentId: number; providerId: string; versionCount: number; lastChangedAt: string; vendorSlug: string; vendorName: string };

const COLUMNS = `i.id AS incidentId, i.provider_id AS providerId, i.version_count AS versionCount, i.last_changed_at AS lastChangedAt,
  d.slug AS vendorSlug, d.name AS vendorName FROM incidents i JOIN vendors d ON d.id = i.vendor_id WHERE i.kind = 'maintenance'`;

const statements = statementsFor((c: Connection) => ({
  all: c.prepare<[number], Row>(`SELECT ${COLUMNS} ORDER BY i.last_changed_at DESC, i.id DESC LIMIT ?`),
  vendor: c.prepare<[number, number], Row>(`SELECT ${COLUMNS} AND i.vendor_id = ? ORDER BY i.last_changed_at DESC, i.id DESC LIMIT ?`),
  versions: c.prepare<[number], { content: Buffer }>("SELECT content FROM incident_versions WHERE incident_id = ? ORDER BY seq"),
}));

/** Maintenances with their current state, of one vendor or (vendorId null) of all. */
export async function listMaintenanceCandidates(db: RedlineDb, vendorId: number | null): Promise<MaintenanceCandidate[]> {
  const st = statements(db);
  const rows = vendorId === null ? await st.all.all(CANDIDATES_MAX) : await st.vendor.all(vendorId, CANDIDATES_MAX);
  const candidates: MaintenanceCandidate[] = [];
  for (const row of rows) {
    const current = await readVersionState(db, row.incidentId, row.versionCount);
    if (current) candidates.push({ ...row, current });
  }
  return candidates;
}

/** The changes of every version of an incident, in order. */
export async function listVersionChanges(db: RedlineDb, incidentId: number): Promise<Array<{ changes: Change[] }>> {
  return (await statements(db).versions.all(incidentId)).map((v) => ({ changes: unpackVersionContent(v.content).changes }));
}

/** Maintenances of a watchlist's vendors; a narrowed vendor's only when they affect one of its components. */
export async function listWatchedMaintenanceCandidates(db: RedlineDb, watch: readonly WatchScope[]): Promise<MaintenanceCandidate[]> {
  const found: MaintenanceCandidate[] = [];
  for (const member of watch) {
    const wanted = member.components ? new Set(member.components.map((c) => c.toLowerCase())) : null;
    const candidates = await listMaintenanceCandidates(db, member.vendorId);
    found.push(...(wanted ? candidates.filter((c) => c.current.incident.components.some((k) => wanted.has(k.name.toLowerCase()))) : candidates));
  }
  return found
    .sort((a, b) => (a.lastChangedAt === b.lastChangedAt ? b.incidentId - a.incidentId : a.lastChangedAt < b.lastChangedAt ? 1 : -1))
    .slice(0, CANDIDATES_MAX);
}
