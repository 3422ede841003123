import { loadIncidentExport } from "@/db/queries/exports";
import { getServerDb } from "@/db/driver/server-db";
import { renderExportMarkdown } from "@/lib/render/export-markdown";
import { downloadResponse } from "@/lib/render/download";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string; key: string }> }) {
  const { slug, key } = await params;
  const doc = await loadIncidentExport(getServerDb(), slug, key);
  if (!doc) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return downloadResponse(renderExportMarkdown(doc), `${slug}-${doc.incidents[0]?.id ?? key}`, "md");
}
