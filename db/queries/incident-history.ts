import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { RedlineExecutor } from "@/db/client";
import { incidents, incidentVersions, vendors } from "@/db/schema";
import type { Change } from "@/lib/change";
import type { ChangeKindName } from "@/lib/change-kinds";
import type { IncidentState } from "@/lib/incident";
import type { ExportDocument, StoredIncidentHistory, StoredVersion } from "@/lib/export-document";
import { toExportIncident } from "@/lib/export-document";

type VersionRow = typeof incidentVersions.$inferSelect;

export function toStoredVersion(row: VersionRow): StoredVersion {
  return {
    seq: row.seq,
    observedAt: row.observedAt,
    hash: row.hash,
    kinds: row.kinds as ChangeKindName[],
    changes: row.changes as Change[],
    summary: row.summary,
    snapshot: row.snapshot as IncidentState,
  };
}

/**
 * A vendor's incidents (or one of them) with every version, newest incident first; undefined
 * when the vendor, or the asked-for incident, is unknown.
 */
export function loadVendorExport(db: RedlineExecutor, slug: string, providerId?: string): ExportDocument | undefined {
  const vendor = db.select().from(vendors).where(eq(vendors.slug, slug)).get();
  if (!vendor) return undefined;
  const rows = db
    .select()
    .from(incidents)
    .where(and(eq(incidents.vendorId, vendor.id), providerId === undefined ? undefined : eq(incidents.providerId, providerId)))
    .orderBy(desc(sql`coalesce(${incidents.startedAt}, ${incidents.firstSeenAt})`), asc(incidents.providerId))
    .all();
  if (providerId !== undefined && rows.length === 0) return undefined;
  const versionsByIncident = new Map<number, StoredVersion[]>();
  const ids = rows.map((r) => r.id);
  const chunk = 500;
  for (let i = 0; i < ids.length; i += chunk) {
    const versionRows = db
      .select()
      .from(incidentVersions)
      .where(inArray(incidentVersions.incidentId, ids.slice(i, i + chunk)))
      .orderBy(asc(incidentVersions.incidentId), asc(incidentVersions.seq))
      .all();
    for (const v of versionRows) {
      const list = versionsByIncident.get(v.incidentId) ?? [];
      list.push(toStoredVersion(v));
      versionsByIncident.set(v.incidentId, list);
    }
  }
  return {
    vendor: { slug: vendor.slug, name: vendor.name },
    incidents: rows.map((r) => {
      const history: StoredIncidentHistory = { firstSeenAt: r.firstSeenAt, lastSeenAt: r.lastSeenAt, versions: versionsByIncident.get(r.id) ?? [] };
      return toExportIncident(history);
    }),
  };
}
