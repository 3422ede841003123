import type { RedlineDb } from "@/db/driver/database";
import { getIncidentRecord, getVersionChange, type IncidentRecord, type VersionChange } from "@/db/queries/incident-page";
import { findComponentPages, loadRunsBeforeSighting, loadVersionSightings } from "@/db/queries/incident-timing";
import { lastGoodCaptureAt } from "@/db/queries/vendor-now";
import { getVendor } from "@/db/queries/vendor-profile";
import type { VendorRow } from "@/db/settings/vendors";
import { type AcknowledgmentLag, acknowledgmentLagOf } from "@/lib/components/acknowledgment-lag";
import { providerIdFromKey } from "@/lib/incident-key";
import { platformProfileOf } from "@/lib/platform-profiles";
import { findPostedLate, type PostedLateFindings } from "@/lib/posted-late";

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

/** What the incident page says of when it was posted: late, or after its components were seen degraded. */
export interface IncidentTiming {
  postedLate: PostedLateFindings;
  lag: AcknowledgmentLag | null;
}

export type IncidentPageRoute = IncidentRoute & {
  timing: IncidentTiming;
  /** The components it names that have a page of their own. */
  componentPages: ReadonlySet<string>;
};

/** The incident page's route: the incident, and its timing from its versions' captures and its components' runs. */
export async function resolveIncidentPage(db: RedlineDb, slug: string, key: string): Promise<IncidentPageRoute | undefined> {
  const route = await resolveIncidentRoute(db, slug, key);
  if (!route) return undefined;
  const incident = route.incident.current.incident;
  const postedLate = findPostedLate(incident.kind, await loadVersionSightings(db, route.incident.id), platformProfileOf);
  const components = incident.components;
  const lag =
    incident.kind === "incident" && components.length > 0
      ? acknowledgmentLagOf(
          { firstSeenAt: route.incident.firstSeenAt, startedAt: incident.startedAt, components },
          await loadRunsBeforeSighting(db, route.vendor.id, components.map((c) => c.id), route.incident.firstSeenAt),
        )
      : null;
  const componentPages = components.length > 0 ? await findComponentPages(db, route.vendor.id, components.map((c) => c.id)) : new Set<string>();
  return { ...route, timing: { postedLate, lag }, componentPages };
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
