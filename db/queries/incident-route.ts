import type { RedlineDb } from "@/db/client";
import { getIncidentRecord, getVersionChange, type IncidentRecord, type VersionChange } from "@/db/queries/incident-page";
import { lastGoodCaptureAt } from "@/db/queries/vendor-now";
import { getVendor } from "@/db/queries/vendor-profile";
import type { VendorRow } from "@/db/vendors";
import { providerIdFromKey } from "@/lib/incident-key";

export interface IncidentRoute {
  vendor: VendorRow;
  incident: IncidentRecord;
  /** The last good capture of the incident's source: what the page says is open is as of then. */
  capturedAt: string | null;
}

/** The vendor and incident a /vendors/<slug>/incidents/<key> address names, or undefined. */
export async function resolveIncidentRoute(db: RedlineDb, slug: string, key: string): Promise<IncidentRoute | undefined> {
  const vendor = await getVendor(db, slug);
  const providerId = providerIdFromKey(key);
  if (!vendor || providerId === null) return undefined;
  const incident = await getIncidentRecord(db, vendor.id, providerId);
  return incident ? { vendor, incident, capturedAt: await lastGoodCaptureAt(db, vendor.id, incident.source) } : undefined;
}

/** A version number from the path: a positive whole number, or null. */
export function parseSeq(value: string): number | null {
  return /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}

export type VersionRoute = IncidentRoute & { version: VersionChange };

export async function resolveVersionRoute(db: RedlineDb, slug: string, key: string, seqText: string): Promise<VersionRoute | undefined> {
  const route = await resolveIncidentRoute(db, slug, key);
  const seq = parseSeq(seqText);
  if (!route || seq === null) return undefined;
  const version = await getVersionChange(db, route.incident.id, seq);
  return version ? { ...route, version } : undefined;
}
