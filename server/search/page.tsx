/**
 * The search page, rendered by the web server itself, as it renders archive pages
 * (server/archive-pages.tsx): a page under Next cannot set its status, and a search stopped at
 * its budget (server/search/runner.ts) is a 503 with Retry-After, said on the page with the form
 * still there. Next renders the same body (app/search/page.tsx) for its client router and in development.
 */
import type http from "node:http";
import { renderToStaticMarkup } from "react-dom/server";
import { HtmlDocument } from "@/components/html-document";
import { SearchPageBody } from "@/components/search-page";
import type { RedlineDb } from "@/db/client";
import { readPollingNotice } from "@/db/queries/poll-outcomes";
import { newNonce, referrerPolicyFor, securityHeaders } from "@/lib/security-headers";
import { isNextRouterRequest } from "@/server/http/next-router";
import { loadSearchView } from "@/server/search/view";

/** What Next sends for a page rendered per request; the page cache keeps it regardless. */
const NO_STORE = "private, no-cache, no-store, max-age=0, must-revalidate";

/** Answers a GET or HEAD of /search; false when Next should (its client router's requests, a query the page does not take). */
export async function answerSearchPage(db: RedlineDb, stylesheets: readonly string[], req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url || isNextRouterRequest(req)) return false;
  const url = new URL(req.url, "http://x");
  if (url.pathname !== "/search") return false;
  const loaded = await loadSearchView(db, url.searchParams, new Date());
  if (loaded === null) return false;
  const notice = await readPollingNotice(db);
  const html = `<!DOCTYPE html>${renderToStaticMarkup(
    <HtmlDocument title="Search" stylesheets={stylesheets} alternates={[]} notice={notice}>
      <SearchPageBody view={loaded.view} />
    </HtmlDocument>,
  )}`;
  const body = Buffer.from(html, "utf8");
  const stopped = loaded.retryAfterSeconds !== null;
  res.writeHead(stopped ? 503 : 200, {
    ...securityHeaders(newNonce(), referrerPolicyFor(url.pathname)),
    "content-type": "text/html; charset=utf-8",
    "content-length": String(body.length),
    "cache-control": stopped ? "no-store" : NO_STORE,
    ...(stopped ? { "retry-after": String(loaded.retryAfterSeconds) } : {}),
  });
  if (req.method === "HEAD") res.end();
  else res.end(body);
  return true;
}
