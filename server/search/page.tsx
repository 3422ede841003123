/**
 * The search page, rendered by the web server itself, as it renders archive pages
 * (server/archive-pages.tsx): a page under Next cannot set its status, and a search stopped at
 * its budget (server/search/runner.ts) is a 503 with Retry-After, said on the page with the form
 * still there. Next renders the same body (app/search/page.tsx) for its client router and in development.
 */
import type http from "node:http";
import { SearchPageBody } from "@/components/search-page";
import type { RedlineDb } from "@/db/client";
import { isNextRouterRequest } from "@/server/http/next-router";
import { renderDocument, sendHtmlPage } from "@/server/archive-pages";
import { loadSearchView } from "@/server/search/view";

/** Answers a GET or HEAD of /search; false when Next should (its client router's requests, a query the page does not take). */
export async function answerSearchPage(db: RedlineDb, stylesheets: readonly string[], req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url || isNextRouterRequest(req)) return false;
  const url = new URL(req.url, "http://x");
  if (url.pathname !== "/search") return false;
  const loaded = await loadSearchView(db, url.searchParams, new Date());
  if (loaded === null) return false;
  const html = await renderDocument(db, "Search", stylesheets, [], <SearchPageBody view={loaded.view} />);
  sendHtmlPage(req, res, html, loaded.retryAfterSeconds === null ? undefined : { status: 503, retryAfterSeconds: loaded.retryAfterSeconds });
  return true;
}
