import { loadVersionExport } from "@/db/queries/exports";
import { getServerDb } from "@/db/driver/server-db";
import { renderVersionExportMarkdown } from "@/lib/render/export-markdown";
import { downloadResponse } from "@/lib/render/download";

export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ slug: string; key: string; seq: string }> }) {
  const { slug, key, seq } = await params;
  const doc = await loadVersionExport(getServerDb(), slug, key, seq);
  if (!doc) return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return downloadResponse(renderVersionExportMarkdown(doc), `${slug}-${doc.incident.id}-v${doc.version.seq}`, "md");
}
