/**
 * Searches refused at the door while every search thread is taken and enough wait: a 503 said
 * before the request reaches a page or Next, so a flood of searches costs next to nothing to
 * refuse (rendered in full, each refusal cost pages a quarter of their throughput:
 * docs/benchmarks.md, issue 34). What a search is must match where searches run: the search
 * page with words, the API's search, the API's incident and change lists with words.
 */
import type http from "node:http";
import { renderSearchesBusyPage } from "@/lib/render/wait-page-html";
import { newNonce, securityHeaders } from "@/lib/security-headers";
import { problemBody } from "@/server/http/problem";
import { routedPathname } from "@/server/http/routed-path";
import { SearchStopped, type SearchRunner } from "@/server/search/runner";

/** The page, or the API route, a request runs a search for; null when it runs none. */
export function searchRequestOf(req: http.IncomingMessage): "page" | "api" | null {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return null;
  const pathname = routedPathname(req.url);
  const words = new URL(req.url, "http://x").searchParams.get("q")?.trim() ?? "";
  if (pathname === "/search") return words === "" ? null : "page";
  if (pathname === "/api/v1/search" || ((pathname === "/api/v1/incidents" || pathname === "/api/v1/changes") && words !== "")) return "api";
  return null;
}

/** Answers a search with 503 while `runner` would refuse it anyway; false when it may run. */
export function answerSearchesBusy(runner: SearchRunner, budgetMs: number, stylesheets: () => readonly string[], req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (!runner.saturated()) return false;
  const kind = searchRequestOf(req);
  if (kind === null) return false;
  const refused = new SearchStopped("busy", budgetMs);
  const retryAfter = String(refused.retryAfterSeconds);
  if (kind === "api") {
    res.writeHead(503, { "content-type": "application/problem+json; charset=utf-8", "cache-control": "no-store", "retry-after": retryAfter });
    res.end(req.method === "HEAD" ? undefined : `${JSON.stringify(problemBody(503, refused.message))}\n`);
    return true;
  }
  const nonce = newNonce();
  res.writeHead(503, { ...securityHeaders(nonce), "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "retry-after": retryAfter });
  res.end(req.method === "HEAD" ? undefined : renderSearchesBusyPage(refused.retryAfterSeconds, req.url ?? "/search", nonce, stylesheets()));
  return true;
}
