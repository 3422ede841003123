import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

export interface RecordedVersion {
  vendorSlug: string;
  providerId: string;
  kinds: string[];
  /** The watchlists whose feeds show it: its vendor's whole, or narrowed to a component it affects. */
  watchlists: string[];
}

const WATCHED = (componentMatches: string) => `SELECT DISTINCT v.id AS versionId, w.name FROM incident_versions v
       JOIN watchlist_members m ON m.vendor_id = v.vendor_id JOIN watchlists w ON w.id = m.watchlist_id
     WHERE v.capture_id = ? AND (m.component IS NULL
       OR EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = v.incident_id AND ${componentMatches}))
     ORDER BY w.name`;

const statements = statementsFor((c: Connection) => ({
  watched: c.prepare<[number], { versionId: number; name: string }>(WATCHED(c.dialect.queries.equalsIgnoringCase("c.name", "m.component"))),
  versions: c.prepare<[number], { versionId: number; vendorSlug: string; providerId: string; kinds: string }>(
    `SELECT v.id AS versionId, d.slug AS vendorSlug, i.provider_id AS providerId, v.kinds FROM incident_versions v
       JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = i.vendor_id
     WHERE v.capture_id = ? ORDER BY v.id`,
  ),
}));

/** The versions one capture recorded: what its feeds gained. */
export async function versionsOfCapture(db: RedlineDb, captureId: number): Promise<RecordedVersion[]> {
  const st = statements(db);
  const watched = new Map<number, string[]>();
  for (const row of await st.watched.all(captureId)) watched.set(row.versionId, [...(watched.get(row.versionId) ?? []), row.name]);
  return (await st.versions.all(captureId)).map(({ versionId, kinds, ...v }) => ({ ...v, kinds: JSON.parse(kinds) as string[], watchlists: watched.get(versionId) ?? [] }));
}
