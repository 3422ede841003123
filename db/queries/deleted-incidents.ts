import { and, asc, eq } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { incidents, incidentVersions, vendors } from "@/db/schema";

/** Enough for any incident a feed carried; a longer history only tombstones its first versions. */
const VERSIONS_MAX = 500;

/** When each version of an incident was observed, oldest first, if the incident is deleted now; else null. */
export async function deletedIncidentHistory(db: RedlineDb, vendorSlug: string, providerId: string): Promise<string[] | null> {
  const rows = db
    .select({ observedAt: incidentVersions.observedAt })
    .from(incidentVersions)
    .innerJoin(incidents, eq(incidents.id, incidentVersions.incidentId))
    .innerJoin(vendors, eq(vendors.id, incidents.vendorId))
    .where(and(eq(vendors.slug, vendorSlug), eq(incidents.providerId, providerId), eq(incidents.presence, "deleted")))
    .orderBy(asc(incidentVersions.seq))
    .limit(VERSIONS_MAX)
    .all();
  return rows.length === 0 ? null : rows.map((r) => r.observedAt);
}
