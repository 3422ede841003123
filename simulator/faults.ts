/**
 * Faults a simulated vendor can be told to show, per vendor, optionally on some paths only.
 * Each is something real status endpoints do to pollers: answer never, slowly, with an error,
 * with a wrong or endless body, in circles, or by resetting the connection.
 */
import { z } from "zod";

const scope = { paths: z.array(z.string().startsWith("/")).optional() };

export const faultSchema = z.discriminatedUnion("kind", [
  /** Accept the connection and never answer. */
  z.object({ kind: z.literal("hang"), ...scope }),
  /** The real response, one byte every `intervalMs`. */
  z.object({ kind: z.literal("trickle"), intervalMs: z.number().int().min(1).default(1000), ...scope }),
  /** An error status; 429 and 503 carry Retry-After (seconds). */
  z.object({
    kind: z.literal("status"),
    status: z.number().int().min(400).max(599),
    retryAfterSeconds: z.number().int().min(0).optional(),
    ...scope,
  }),
  /** 200 with the first half of the real body. */
  z.object({ kind: z.literal("truncated"), ...scope }),
  /** 200 with an HTML error page instead of the format. */
  z.object({ kind: z.literal("html-error"), ...scope }),
  /** 200 with an empty body. */
  z.object({ kind: z.literal("empty"), ...scope }),
  /** 200 with a streamed body of `bytes` bytes (default 64 MiB), without Content-Length. */
  z.object({ kind: z.literal("oversize"), bytes: z.number().int().min(1).default(64 * 1024 * 1024), ...scope }),
  /** 302 between two URLs of the endpoint, forever. */
  z.object({ kind: z.literal("redirect-loop"), ...scope }),
  /** 200 with valid JSON of the wrong shape (the real document wrapped the other way round). */
  z.object({ kind: z.literal("schema-drift"), ...scope }),
  /** TCP reset as soon as the request arrives. */
  z.object({ kind: z.literal("reset"), ...scope }),
]);

export type Fault = z.infer<typeof faultSchema>;
export type FaultInput = z.input<typeof faultSchema>;
export type FaultKind = Fault["kind"];

export const FAULT_KINDS: readonly FaultKind[] = faultSchema.options.map((o) => o.shape.kind.value);

/** Retry-After sent with 429 and 503 when the fault names none. */
export const DEFAULT_RETRY_AFTER_SECONDS = 120;

export function parseFault(input: unknown): Fault {
  return faultSchema.parse(input);
}

/** True when the fault applies to a request for `path`. */
export function faultApplies(fault: Fault, path: string): boolean {
  return fault.paths === undefined || fault.paths.includes(path);
}

/**
 * A fault from the command line: "hang", "trickle:200", "500", "429:30", "503", "status:404",
 * "truncated", "html-error", "empty", "oversize:1048576", "redirect-loop", "schema-drift", "reset".
 */
export function parseFaultShorthand(text: string): Fault {
  const [kind = "", arg, extra] = text.split(":");
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  if (/^\d{3}$/.test(kind)) return parseFault({ kind: "status", status: Number(kind), retryAfterSeconds: number(arg) });
  if (kind === "status") return parseFault({ kind, status: number(arg), retryAfterSeconds: number(extra) });
  if (kind === "trickle") return parseFault({ kind, intervalMs: number(arg) });
  if (kind === "oversize") return parseFault({ kind, bytes: number(arg) });
  return parseFault({ kind });
}

/** The document wrapped the other way round: an array becomes `{data: [...]}`, an object `[{...}]`. */
export function driftedBody(body: Buffer): string {
  let document: unknown;
  try {
    document = JSON.parse(body.toString("utf8"));
  } catch {
    return JSON.stringify({ data: { type: "document", attributes: { content: body.toString("utf8").slice(0, 2048) } } });
  }
  return JSON.stringify(Array.isArray(document) ? { data: document } : [document]);
}

export const HTML_ERROR_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>503 Service Temporarily Unavailable</title></head>
<body>
<h1>We'll be right back</h1>
<p>Our status page is undergoing maintenance. Please try again in a few minutes.</p>
</body>
</html>
`;
