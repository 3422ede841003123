import { loadIncidentExport } from "@/db/queries/exports";
import { getServerDb } from "@/db/driver/server-db";
import { renderExportJson } from "@/lib/export-document";
import { downloadResponse } from "@/lib/render/download";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string; key: string }> }) {
  const { slug, key } = await params;
  const doc = await loadIncidentExport(getServerDb(), slug, key);
  if (!doc) return Response.json({ error: "not found" }, { status: 404 });
  return downloadResponse(renderExportJson(doc), `${slug}-${doc.incidents[0]?.id ?? key}`, "json");
}
