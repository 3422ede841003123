/**
 * How one simulated vendor's HTTP server answers: serves its endpoints with ETag and Last-Modified,
 * answers conditional requests with 304, gzips for clients that accept it, records every
 * request, and plays the vendor's fault when one is set.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { SimClock } from "@/simulator/clock";
import { respondWithFault } from "@/simulator/fault-responses";
import { type Fault, faultApplies, type FaultKind } from "@/simulator/faults";
import type { EndpointContent, VendorContent } from "@/simulator/vendor-content";
import type { SimVendor } from "@/simulator/world";

export interface RecordedRequest {
  /** Real arrival time: what politeness intervals are measured in. */
  receivedAt: string;
  receivedAtMs: number;
  simulatedAt: string;
  method: string;
  path: string;
  fault: FaultKind | null;
  /** Who asked: tells apart several pollers (each with its own contact address) in one log. */
  userAgent: string | null;
}

export interface VendorHost {
  clock: SimClock;
  faultOf(slug: string): Fault | null;
  record(slug: string, request: RecordedRequest): void;
}

function etagsOf(header: string): string[] {
  return header.split(",").map((tag) => tag.trim().replace(/^W\//, ""));
}

/** RFC 9110: If-None-Match wins over If-Modified-Since; dates compare at HTTP's one-second precision. */
export function isNotModified(req: IncomingMessage, endpoint: EndpointContent): boolean {
  const noneMatch = req.headers["if-none-match"];
  if (noneMatch !== undefined) return etagsOf(noneMatch).some((tag) => tag === "*" || tag === endpoint.etag);
  const since = Date.parse(req.headers["if-modified-since"] ?? "");
  return Number.isFinite(since) && Math.floor(endpoint.lastModifiedMs / 1000) * 1000 <= since;
}

export function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers["accept-encoding"] ?? "";
  return header.split(",").some((part) => {
    const [coding = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return (coding.trim() === "gzip" || coding.trim() === "*") && (q === undefined || Number(q) > 0);
  });
}

function sendEndpoint(req: IncomingMessage, res: ServerResponse, endpoint: EndpointContent, content: VendorContent): void {
  const headers: Record<string, string | number> = {
    "Content-Type": endpoint.contentType,
    ETag: endpoint.etag,
    "Last-Modified": new Date(endpoint.lastModifiedMs).toUTCString(),
    "Cache-Control": "no-cache",
    Vary: "Accept-Encoding",
  };
  if (isNotModified(req, endpoint)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  const gzip = acceptsGzip(req);
  const body = gzip ? content.gzip(endpoint.body) : endpoint.body;
  res.writeHead(200, { ...headers, "Content-Length": body.length, ...(gzip ? { "Content-Encoding": "gzip" } : {}) });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** The request listener of one vendor's server. */
export function vendorRequestListener(vendor: SimVendor, content: VendorContent, host: VendorHost): RequestListener {
  return (req, res) => {
    const path = new URL(req.url ?? "/", vendor.baseUrl).pathname;
    const nowMs = host.clock.nowMs();
    const set = host.faultOf(vendor.slug);
    const fault = set && faultApplies(set, path) ? set : null;
    const receivedAtMs = Date.now();
    host.record(vendor.slug, {
      receivedAt: new Date(receivedAtMs).toISOString(),
      receivedAtMs,
      simulatedAt: new Date(nowMs).toISOString(),
      method: req.method ?? "GET",
      path,
      fault: fault?.kind ?? null,
      userAgent: req.headers["user-agent"] ?? null,
    });
    if (fault) return respondWithFault(fault, req, res, vendor.baseUrl, () => content.at(path, nowMs));
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Length": 0 });
      res.end();
      return;
    }
    let endpoint: EndpointContent | null;
    try {
      endpoint = content.at(path, nowMs);
    } catch (error) {
      console.error(`simulator: ${vendor.slug}: rendering ${path} failed:`, error);
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("simulator: rendering failed\n");
      return;
    }
    if (endpoint === null) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": 10 });
      res.end("Not Found\n");
      return;
    }
    sendEndpoint(req, res, endpoint, content);
  };
}
