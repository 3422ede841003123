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
 * The public API, the feeds and calendars: what scripts and feed readers poll. Pages are for
 * people, but the search page costs a query per visit and a script can ask for it in a loop.
 */
const LIMITED = /^\/(?:api\/v1\/|search$|(?:.*\/)?(?:feed\.(?:atom|rss|json)|maintenance\.ics)$)/;
/** The limited routes that are pages: refused with a page, not a problem document. */
const LIMITED_PAGE = /^\/search$/;

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
 * Per-client token buckets in front of the API and the feeds: one client's flood is refused with
 * 429 and Retry-After while every other client goes on. Returns true when it answered.
 */
export function createClientRateLimit(settings: ClientRateLimitSettings, now: () => number = Date.now) {
  const buckets = new KeyedBuckets({ ratePerSecond: settings.ratePerSecond, burst: settings.burst });
  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    // Matched on the path the router serves, so no spelling of a limited route escapes its budget.
    const pathname = routedPathname(req.url ?? "/");
    if (settings.ratePerSecond <= 0 || !LIMITED.test(pathname)) return false;
    const result = buckets.take(clientKey(req, settings.trust), now());
    for (const [name, value] of Object.entries(headers(settings, result))) res.setHeader(name, value);
    if (result.allowed) return false;
    if (LIMITED_PAGE.test(pathname)) {
      const nonce = newNonce();
      res.writeHead(429, { ...securityHeaders(nonce), "content-type": "text/html; charset=utf-8", "retry-after": String(result.retryAfterSeconds), "cache-control": "no-store" });
      const url = req.url ?? "/";
      const query = url.includes("?") ? url.slice(url.indexOf("?")) : "";
      res.end(renderTooManyRequestsPage("searches", result.retryAfterSeconds, `${pathname}${query}`, nonce, builtStylesheets()));
      return true;
    }
    const body = problemBody(429, `over ${settings.burst} requests at once or ${settings.ratePerSecond} a second from this client; retry after ${result.retryAfterSeconds} s`);
    res.writeHead(429, { "content-type": "application/problem+json; charset=utf-8", "retry-after": String(result.retryAfterSeconds), "cache-control": "no-store" });
    res.end(`${JSON.stringify(body)}\n`);
    return true;
  };
}
