import { loadVersionExport } from "@/db/queries/exports";
import { getServerDb } from "@/db/driver/server-db";
import { renderVersionExportJson } from "@/lib/export-document";
import { downloadResponse } from "@/lib/render/download";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string; key: string; seq: string }> }) {
  const { slug, key, seq } = await params;
  const doc = await loadVersionExport(getServerDb(), slug, key, seq);
  if (!doc) return Response.json({ error: "not found" }, { status: 404 });
  return downloadResponse(renderVersionExportJson(doc), `${slug}-${doc.incident.id}-v${doc.version.seq}`, "json");
}
