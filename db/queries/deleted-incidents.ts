import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

/** Enough for any incident a feed carried; a longer history only tombstones its first versions. */
const VERSIONS_MAX = 500;

const statements = statementsFor((c: Connection) => ({
  observed: c.prepare<[string, string, number], { observedAt: string }>(
    `SELECT v.observed_at AS observedAt FROM incident_versions v JOIN incidents i ON i.id = v.incident_id JOIN vendors d ON d.id = i.vendor_id
     WHERE d.slug = ? AND i.provider_id = ? AND i.presence = 'deleted' ORDER BY v.seq LIMIT ?`,
  ),
}));

/** When each version of an incident was observed, oldest first, if the incident is deleted now; else null. */
export async function deletedIncidentHistory(db: RedlineDb, vendorSlug: string, providerId: string): Promise<string[] | null> {
  const rows = await statements(db).observed.all(vendorSlug, providerId, VERSIONS_MAX);
  return rows.length === 0 ? null : rows.map((r) => r.observedAt);
}
