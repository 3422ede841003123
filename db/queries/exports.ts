import type { RedlineDb } from "@/db/driver/database";
import { loadVendorExport } from "@/db/queries/incident-history";
import { parseSeq } from "@/db/queries/incident-route";
import { type ExportDocument, toVersionExport, type VersionExportDocument } from "@/lib/export-document";
import { providerIdFromKey } from "@/lib/incident-key";

/** The export of the incident a path key names, exactly as `redline export --incident` prints it. */
export async function loadIncidentExport(db: RedlineDb, slug: string, key: string): Promise<ExportDocument | undefined> {
  const providerId = providerIdFromKey(key);
  return providerId === null ? undefined : loadVendorExport(db, slug, providerId);
}

export async function loadVersionExport(db: RedlineDb, slug: string, key: string, seqText: string): Promise<VersionExportDocument | undefined> {
  const seq = parseSeq(seqText);
  const doc = seq === null ? undefined : await loadIncidentExport(db, slug, key);
  return doc && seq !== null ? toVersionExport(doc, seq) : undefined;
}
