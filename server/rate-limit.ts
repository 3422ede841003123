import type http from "node:http";
import ipaddr from "ipaddr.js";
import { renderTooManyRequestsPage } from "@/lib/render/wait-page-html";
import { newNonce, securityHeaders } from "@/lib/security-headers";
import { KeyedBuckets, type TakeResult } from "@/lib/token-bucket";
import { builtStylesheets } from "@/server/http/built-stylesheets";
import { clientAddress, type ProxyTrust } from "@/server/http/client-address";
import { problemBody } from "@/server/http/problem";
import { routedPathname } from "@/server/http/routed-path";

/**
 * What a script can ask for in a loop and get rendered afresh: the public API, the feeds and
 * calendars, the exports, the search and the compare pages. Every other page counts only with a
 * query (a filter, a period, a page number), which makes it another page than the one kept in the
 * page cache; without one it is cheap and never counted.
 */
const LIMITED = /^\/(?:api\/v1\/|search$|compare$|vendors\/.+\/incidents\/.+\/compare$|(?:.*\/)?(?:feed\.(?:atom|rss|json)|maintenance\.ics|export\.(?:md|json))$)/;
/** The limited routes that answer programs: refused with a problem document, every other one with a page. */
const FOR_PROGRAMS = /^\/(?:api\/v1\/|(?:.*\/)?(?:feed\.(?:atom|rss|json)|maintenance\.ics|export\.(?:md|json))$)/;
/** Never counted, whatever their query: the build's files and the files at the top (Next adds `?<hash>` to the icon's address). */
const STATIC = /^\/(?:_next\/static\/|[^/]+\.(?:ico|svg|png|jpe?g|webp|txt|webmanifest)$)/;
/**
 * Next's client router adds `_rsc=<hash>` to the page it opens (with an RSC header). Such a
 * request counts as the page it opens: dropping the pair, a plain page stays free for a person
 * clicking through, and a filtered one counts, so neither the header nor `_rsc` is a way around
 * the budget. Only this spelling is dropped; `?%5Frsc=…` is a query like any other.
 */
const ROUTER_PAIR = /^_rsc(?:=|$)/;

/**
 * The query a page is asked for with, without the client router's `_rsc`: "" for none. A bare
 * `?` is none (the same page, and the same page cache entry); any other text is a query, `?&` too,
 * since each spelling misses the page cache.
 */
export function pageQuery(url: string): string {
  const query = /^[^?#]*\?([^#]*)/.exec(url)?.[1] ?? "";
  return query.split("&").filter((pair) => !ROUTER_PAIR.test(pair)).join("&");
}

/** Whether a request spends the client's budget, decided on the path the router serves and the query it carries. */
export function isCounted(url: string): boolean {
  const pathname = routedPathname(url);
  if (STATIC.test(pathname)) return false;
  return LIMITED.test(pathname) || pageQuery(url) !== "";
}

/** What a refused page asked for, as the 429 page names it. */
function askedFor(pathname: string): string {
  if (pathname === "/search") return "searches";
  return pathname.endsWith("/compare") ? "comparisons" : "pages";
}

export interface ClientRateLimitSettings {
  ratePerSecond: number;
  burst: number;
  /** The proxies whose X-Forwarded-For names the client (server/http/client-address.ts). */
  trust: ProxyTrust;
}

/**
 * The group an address counts in: an IPv4 address alone (also when written IPv4-mapped), an IPv6
 * address by its /64, which one host or one home usually has to itself. Zone ids are dropped.
 */
export function addressGroup(address: string): string {
  // ipaddr.js takes only letters and digits after the %, and interface names can hold more.
  const bare = address.replace(/%.*$/, "");
  if (!ipaddr.isValid(bare)) return address;
  const ip = ipaddr.process(bare);
  if (ip instanceof ipaddr.IPv4) return ip.toString();
  return `${new ipaddr.IPv6([...ip.parts.slice(0, 4), 0, 0, 0, 0]).toRFC5952String()}/64`;
}

/** The client a request counts against. */
export function clientKey(req: http.IncomingMessage, trust: ProxyTrust): string {
  return addressGroup(clientAddress(req, trust));
}

function headers(settings: ClientRateLimitSettings, result: TakeResult): Record<string, string> {
  const window = Math.ceil(settings.burst / settings.ratePerSecond);
  // draft-ietf-httpapi-ratelimit-headers: the policy, and this client's standing under it.
  return {
    "ratelimit-policy": `"per-client";q=${settings.burst};w=${window}`,
    ratelimit: `"per-client";r=${result.remaining};t=${result.fullInSeconds}`,
  };
}

/**
 * Per-client token buckets in front of the API, the feeds, the exports and the pages that cost a
 * query: one client's flood is refused with 429 and Retry-After while every other client goes on.
 * Returns true when it answered.
 */
export function createClientRateLimit(settings: ClientRateLimitSettings, now: () => number = Date.now) {
  const buckets = new KeyedBuckets({ ratePerSecond: settings.ratePerSecond, burst: settings.burst });
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = req.url ?? "/";
    // Matched on the path the router serves, so no spelling of a limited route escapes its budget.
    if (settings.ratePerSecond <= 0 || !isCounted(url)) return false;
    const result = buckets.take(clientKey(req, settings.trust), now());
    for (const [name, value] of Object.entries(headers(settings, result))) res.setHeader(name, value);
    if (result.allowed) return false;
    const pathname = routedPathname(url);
    if (!FOR_PROGRAMS.test(pathname)) {
      const nonce = newNonce();
      res.writeHead(429, { ...securityHeaders(nonce), "content-type": "text/html; charset=utf-8", "retry-after": String(result.retryAfterSeconds), "cache-control": "no-store" });
      const query = pageQuery(url);
      const again = query === "" ? pathname : `${pathname}?${query}`;
      res.end(renderTooManyRequestsPage(askedFor(pathname), result.retryAfterSeconds, again, nonce, builtStylesheets()));
      return true;
    }
    const body = problemBody(429, `over ${settings.burst} requests at once or ${settings.ratePerSecond} a second from this client; retry after ${result.retryAfterSeconds} s`);
    res.writeHead(429, { "content-type": "application/problem+json; charset=utf-8", "retry-after": String(result.retryAfterSeconds), "cache-control": "no-store" });
    res.end(`${JSON.stringify(body)}\n`);
    return true;
  };
}
