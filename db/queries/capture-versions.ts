import { eq } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";
import { incidents, incidentVersions, vendors } from "@/db/schema";

export interface RecordedVersion {
  vendorSlug: string;
  providerId: string;
  kinds: string[];
  /** The watchlists whose feeds show it: its vendor's whole, or narrowed to a component it affects. */
  watchlists: string[];
}

const statements = preparedFor((sqlite) => ({
  watched: sqlite.prepare<[number], { versionId: number; name: string }>(
    `SELECT DISTINCT v.id AS versionId, w.name FROM incident_versions v
       JOIN watchlist_members m ON m.vendor_id = v.vendor_id JOIN watchlists w ON w.id = m.watchlist_id
     WHERE v.capture_id = ? AND (m.component IS NULL
       OR EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = v.incident_id AND c.name = m.component COLLATE NOCASE))
     ORDER BY w.name`,
  ),
}));

/** The versions one capture recorded: what its feeds gained. */
export function versionsOfCapture(db: RedlineDb, captureId: number): RecordedVersion[] {
  const watched = new Map<number, string[]>();
  for (const row of statements(db).watched.all(captureId)) watched.set(row.versionId, [...(watched.get(row.versionId) ?? []), row.name]);
  return db
    .select({ versionId: incidentVersions.id, vendorSlug: vendors.slug, providerId: incidents.providerId, kinds: incidentVersions.kinds })
    .from(incidentVersions)
    .innerJoin(incidents, eq(incidents.id, incidentVersions.incidentId))
    .innerJoin(vendors, eq(vendors.id, incidents.vendorId))
    .where(eq(incidentVersions.captureId, captureId))
    .all()
    .map(({ versionId, ...v }) => ({ ...v, watchlists: watched.get(versionId) ?? [] }));
}
