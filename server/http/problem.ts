/**
 * Errors as RFC 9457 problem details (`application/problem+json`): a status, a short title, and a
 * detail naming what was wrong, so a client can show or log it as is.
 */
export interface Problem {
  status: number;
  title: string;
  detail: string;
  /** The query parameter or path segment at fault, when there is one. */
  parameter?: string;
}

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Content too large",
  415: "Unsupported media type",
  429: "Too many requests",
  500: "Internal error",
  503: "Service unavailable",
};

/** The problem document itself, for answers written without a web Response (the Node-level handlers). */
export function problemBody(status: number, detail: string, parameter?: string): Problem & { type: string } {
  return { type: "about:blank", status, title: TITLES[status] ?? "Error", detail, ...(parameter ? { parameter } : {}) };
}

export function problem(status: number, detail: string, extra: { parameter?: string; headers?: Record<string, string> } = {}): Response {
  return new Response(`${JSON.stringify(problemBody(status, detail, extra.parameter))}\n`, {
    status,
    headers: { "content-type": "application/problem+json; charset=utf-8", "cache-control": "no-store", ...extra.headers },
  });
}
