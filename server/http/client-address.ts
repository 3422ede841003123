import type http from "node:http";
import proxyaddr from "proxy-addr";

/** Whether an address, `hop` steps from this server (0: the peer), is a proxy whose forwarding headers are believed. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** REDLINE_TRUSTED_PROXIES (already validated by lib/env.ts) as a trust function; an empty list trusts no one. */
export function trustProxies(entries: readonly string[]): ProxyTrust {
  return proxyaddr.compile([...entries]);
}

/**
 * The address a request comes from: the peer's, unless the peer is a trusted proxy; then
 * X-Forwarded-For is read from the right and the first address that is not a trusted proxy wins,
 * since only the entries trusted proxies appended can be believed.
 */
export function clientAddress(req: http.IncomingMessage, trust: ProxyTrust): string {
  if (req.socket.remoteAddress === undefined) return "unknown";
  return proxyaddr(req, trust);
}

/**
 * Drops the forwarding headers Next.js reads unless the peer is a trusted proxy: Next.js believes
 * them from anyone, and the scheme they give makes feed and API links and the cookie's Secure.
 */
export function dropUntrustedForwarding(req: http.IncomingMessage, trust: ProxyTrust): void {
  const peer = req.socket.remoteAddress;
  if (peer !== undefined && trust(peer, 0)) return;
  delete req.headers["x-forwarded-for"];
  delete req.headers["x-forwarded-host"];
  delete req.headers["x-forwarded-proto"];
  delete req.headers["x-forwarded-port"];
}
