import { eq } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { incidents, incidentVersions, vendors } from "@/db/schema";

export interface RecordedVersion {
  vendorSlug: string;
  providerId: string;
  kinds: string[];
}

/** The versions one capture recorded: what its feeds gained. */
export function versionsOfCapture(db: RedlineDb, captureId: number): RecordedVersion[] {
  return db
    .select({ vendorSlug: vendors.slug, providerId: incidents.providerId, kinds: incidentVersions.kinds })
    .from(incidentVersions)
    .innerJoin(incidents, eq(incidents.id, incidentVersions.incidentId))
    .innerJoin(vendors, eq(vendors.id, incidents.vendorId))
    .where(eq(incidentVersions.captureId, captureId))
    .all();
}
