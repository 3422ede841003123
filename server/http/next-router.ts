import type http from "node:http";

/** Headers of requests from Next's client router, which want its payload rather than the HTML page. */
const ROUTER_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action", "next-url"];

export function isNextRouterRequest(req: http.IncomingMessage): boolean {
  return ROUTER_HEADERS.some((h) => req.headers[h] !== undefined);
}
