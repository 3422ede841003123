import type http from "node:http";
import { KeyedBuckets, type TakeResult } from "@/lib/token-bucket";
import { problemBody } from "@/server/http/problem";

/** The public API and the feeds: what scripts and feed readers poll. Pages are for people. */
const LIMITED = /^\/(?:api\/v1\/|(?:.*\/)?feed\.(?:atom|rss|json)$)/;

export interface ClientRateLimitSettings {
  ratePerSecond: number;
  burst: number;
  /** Take the client's address from X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
}

/** The client a request counts against: its address (IPv6 by its /64, which one host usually has). */
export function clientKey(req: http.IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? String(req.headers["x-forwarded-for"] ?? "").split(",")[0]?.trim() : "";
  const address = forwarded || req.socket.remoteAddress || "unknown";
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (v4?.[1]) return v4[1];
  return address.includes(":") ? address.split(":").slice(0, 4).join(":") : address;
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
    const pathname = (req.url ?? "/").split("?")[0] ?? "/";
    if (settings.ratePerSecond <= 0 || !LIMITED.test(pathname)) return false;
    const result = buckets.take(clientKey(req, settings.trustProxy), now());
    for (const [name, value] of Object.entries(headers(settings, result))) res.setHeader(name, value);
    if (result.allowed) return false;
    const body = problemBody(429, `over ${settings.burst} requests at once or ${settings.ratePerSecond} a second from this client; retry after ${result.retryAfterSeconds} s`);
    res.writeHead(429, { "content-type": "application/problem+json; charset=utf-8", "retry-after": String(result.retryAfterSeconds), "cache-control": "no-store" });
    res.end(`${JSON.stringify(body)}\n`);
    return true;
  };
}
