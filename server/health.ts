import type http from "node:http";
import type { Readiness } from "@/db/operations/readiness";

/** Whether the request asks for `/healthz` or `/readyz`. */
export function isHealthCheck(req: http.IncomingMessage): boolean {
  const pathname = (req.url ?? "").split("?")[0];
  return pathname === "/healthz" || pathname === "/readyz";
}

/**
 * `/healthz`: the process answers (no database work, so a slow database never turns liveness
 * red and gets every server restarted). `/readyz`: the database answers with every migration
 * applied. Answered before Next.js, the page cache or anything else that could be slow.
 */
export async function answerHealth(req: http.IncomingMessage, res: http.ServerResponse, readiness: () => Promise<Readiness>): Promise<boolean> {
  if (!isHealthCheck(req)) return false;
  const pathname = (req.url ?? "").split("?")[0];
  const result = pathname === "/healthz" ? { ready: true, detail: "the web process answers" } : await readiness();
  const body = `${JSON.stringify({ status: result.ready ? "ok" : "unavailable", detail: result.detail })}\n`;
  res.writeHead(result.ready ? 200 : 503, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(req.method === "HEAD" ? undefined : body);
  return true;
}
