/** How a vendor answers while a fault is set (see faults.ts for what each one is). */
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from "node:http";
import { DEFAULT_RETRY_AFTER_SECONDS, driftedBody, type Fault, HTML_ERROR_PAGE } from "@/simulator/faults";
import type { EndpointContent } from "@/simulator/vendor-content";

const STREAM_CHUNK = Buffer.alloc(64 * 1024, " ");
const NOT_FOUND = Buffer.from("Not Found\n");

function sendWhole(res: ServerResponse, status: number, contentType: string, body: Buffer | string): void {
  const bytes = typeof body === "string" ? Buffer.from(body) : body;
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": bytes.length });
  res.end(bytes);
}

function trickle(res: ServerResponse, endpoint: EndpointContent | null, intervalMs: number): void {
  const body = endpoint?.body ?? NOT_FOUND;
  res.writeHead(endpoint ? 200 : 404, { "Content-Type": endpoint?.contentType ?? "text/plain", "Content-Length": body.length });
  res.flushHeaders();
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= body.length) {
      clearInterval(timer);
      res.end();
      return;
    }
    res.write(body.subarray(sent, sent + 1));
    sent += 1;
  }, intervalMs);
  res.on("close", () => clearInterval(timer));
}

/** The start of the real body, then padding, `total` bytes in all; stops when the client goes away. */
function streamOversize(res: ServerResponse, endpoint: EndpointContent | null, total: number): void {
  res.writeHead(200, { "Content-Type": endpoint?.contentType ?? "application/json" });
  const head = (endpoint?.body ?? Buffer.alloc(0)).subarray(0, Math.min(total, Math.floor((endpoint?.body.length ?? 0) / 2)));
  let sent = head.length;
  if (head.length > 0) res.write(head);
  const pump = (): void => {
    while (sent < total && !res.destroyed) {
      const n = Math.min(STREAM_CHUNK.length, total - sent);
      sent += n;
      if (!res.write(n === STREAM_CHUNK.length ? STREAM_CHUNK : STREAM_CHUNK.subarray(0, n))) {
        res.once("drain", pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

function redirectInCircles(req: IncomingMessage, res: ServerResponse, baseUrl: string): void {
  const url = new URL(req.url ?? "/", baseUrl);
  const next = url.searchParams.get("loop") === "1" ? url.pathname : `${url.pathname}?loop=1`;
  res.writeHead(302, { Location: `${baseUrl}${next}`, "Content-Length": 0 });
  res.end();
}

/** Answer the request as the fault says; `content` is the real endpoint, rendered only when needed. */
export function respondWithFault(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  baseUrl: string,
  content: () => EndpointContent | null,
): void {
  switch (fault.kind) {
    case "hang":
      return;
    case "reset":
      req.socket.resetAndDestroy();
      return;
    case "trickle":
      return trickle(res, content(), fault.intervalMs);
    case "status": {
      const retry = fault.retryAfterSeconds ?? (fault.status === 429 || fault.status === 503 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
      const body = Buffer.from(`${fault.status} ${STATUS_CODES[fault.status] ?? "Error"}\n`);
      res.writeHead(fault.status, {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": body.length,
        ...(retry === undefined ? {} : { "Retry-After": String(retry) }),
      });
      res.end(body);
      return;
    }
    case "truncated": {
      const endpoint = content();
      const body = endpoint?.body ?? NOT_FOUND;
      return sendWhole(res, 200, endpoint?.contentType ?? "text/plain", body.subarray(0, Math.floor(body.length / 2)));
    }
    case "html-error":
      return sendWhole(res, 200, "text/html; charset=utf-8", HTML_ERROR_PAGE);
    case "empty":
      return sendWhole(res, 200, content()?.contentType ?? "application/json", Buffer.alloc(0));
    case "oversize":
      return streamOversize(res, content(), fault.bytes);
    case "redirect-loop":
      return redirectInCircles(req, res, baseUrl);
    case "schema-drift":
      return sendWhole(res, 200, "application/json; charset=utf-8", driftedBody(content()?.body ?? Buffer.alloc(0)));
  }
}
