/**
 * The incident, change and component pages, rendered by the web server itself rather than by Next:
 * they are the pages readers open during an outage, and React's static renderer makes them in a
 * few milliseconds where Next's server-component pipeline (a flight payload, then HTML from it,
 * both sent) takes 15 to 20 (docs/decisions/0035-archive-pages-without-next.md, 0053 for component
 * pages). The same components render them under Next in development; these pages carry no script,
 * so nothing is lost.
 */
import type http from "node:http";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { FeedAlternate } from "@/components/feed-links";
import { ChangePageBody, changePageAlternates, changePageTitle } from "@/components/change-page";
import { ComponentPageBody, componentPageTitle } from "@/components/component-page";
import { HtmlDocument } from "@/components/html-document";
import { IncidentPageBody, incidentPageAlternates, incidentPageTitle } from "@/components/incident-page";
import type { RedlineDb } from "@/db/client";
import { resolveComponentPage } from "@/db/queries/component-page";
import { resolveIncidentPage, resolveVersionRoute } from "@/db/queries/incident-route";
import { readPollingNotice } from "@/db/queries/poll-outcomes";
import { newNonce, securityHeaders } from "@/lib/security-headers";
import { isNextRouterRequest } from "@/server/http/next-router";

const INCIDENT_PAGE = /^\/vendors\/([^/]+)\/incidents\/([^/]+)(?:\/versions\/([^/]+))?$/;
const COMPONENT_PAGE = /^\/vendors\/([^/]+)\/components\/([^/]+)$/;
/** What Next sends for a page rendered per request; the page cache keeps it regardless. */
const NO_STORE = "private, no-cache, no-store, max-age=0, must-revalidate";

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The whole HTML of an incident, change or component page at `pathname` (with `search`, which only
 * a component page takes), or null when the path is not one, names nothing archived, or asks with
 * parameters the page does not take (Next then answers with its 404 or 400 page).
 */
export async function renderArchivePage(db: RedlineDb, pathname: string, stylesheets: readonly string[], now: Date, search = ""): Promise<string | null> {
  const component = COMPONENT_PAGE.exec(pathname);
  if (component) return renderComponentPage(db, component, search, stylesheets, now);
  if (search !== "") return null;
  const match = INCIDENT_PAGE.exec(pathname);
  if (!match) return null;
  const [slug, key] = [decodeSegment(match[1] ?? ""), decodeSegment(match[2] ?? "")];
  if (slug === null || key === null) return null;
  if (match[3] === undefined) {
    const route = await resolveIncidentPage(db, slug, key);
    if (!route) return null;
    return renderDocument(db, incidentPageTitle(route), stylesheets, incidentPageAlternates(route), <IncidentPageBody route={route} now={now} />);
  }
  const seq = decodeSegment(match[3]);
  const route = seq === null ? undefined : await resolveVersionRoute(db, slug, key, seq);
  if (!route) return null;
  return renderDocument(db, changePageTitle(route), stylesheets, changePageAlternates(route), <ChangePageBody route={route} />);
}

async function renderComponentPage(db: RedlineDb, match: RegExpExecArray, search: string, stylesheets: readonly string[], now: Date): Promise<string | null> {
  const [slug, key] = [decodeSegment(match[1] ?? ""), decodeSegment(match[2] ?? "")];
  if (slug === null || key === null) return null;
  const page = await resolveComponentPage(db, slug, key, search, now);
  if (!page) return null;
  return renderDocument(db, componentPageTitle(page), stylesheets, [], <ComponentPageBody page={page} now={now} />);
}

/** A whole page the web server renders itself, framed as app/layout.tsx frames Next's, with the polling banner while every poll fails. */
export async function renderDocument(db: RedlineDb, title: string, stylesheets: readonly string[], alternates: readonly FeedAlternate[], body: ReactNode): Promise<string> {
  const notice = await readPollingNotice(db);
  return `<!DOCTYPE html>${renderToStaticMarkup(<HtmlDocument title={title} stylesheets={stylesheets} alternates={alternates} notice={notice}>{body}</HtmlDocument>)}`;
}

/** Renders the archive page at a path with its query: its HTML, or null when the path names nothing archived or asks what the page does not take. */
export type ArchivePageRenderer = (pathname: string, search: string, now: Date) => Promise<string | null>;

/** Whether a path is one of an incident, change or component page (which may still name nothing). */
export function isArchivePagePath(pathname: string): boolean {
  return COMPONENT_PAGE.test(pathname) || INCIDENT_PAGE.test(pathname);
}

/**
 * Answers a GET or HEAD of an incident or change page without query parameters (the proxy checks
 * those, and a page takes none), or of a component page with the period it takes; false when Next
 * should answer instead.
 */
export async function answerArchivePage(render: ArchivePageRenderer, req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url) return false;
  // Next's client router asks for its own payload, not the page: Next answers those.
  if (isNextRouterRequest(req)) return false;
  const url = new URL(req.url, "http://x");
  if (!isArchivePagePath(url.pathname)) return false;
  const html = await render(url.pathname, url.search, new Date());
  if (html === null) return false;
  sendHtmlPage(req, res, html);
  return true;
}

/**
 * Writes a page the web server rendered itself: its security headers with a fresh nonce, and
 * Next's cache-control for a page rendered per request (a 200 is kept by the page cache
 * regardless); a refused page (a 503 with when to ask again) is not to be kept anywhere.
 */
export function sendHtmlPage(req: http.IncomingMessage, res: http.ServerResponse, html: string, refused?: { status: number; retryAfterSeconds: number }): void {
  const body = Buffer.from(html, "utf8");
  res.writeHead(refused?.status ?? 200, {
    ...securityHeaders(newNonce()),
    "content-type": "text/html; charset=utf-8",
    "content-length": String(body.length),
    "cache-control": refused ? "no-store" : NO_STORE,
    ...(refused ? { "retry-after": String(refused.retryAfterSeconds) } : {}),
  });
  if (req.method === "HEAD") res.end();
  else res.end(body);
}
