import { createHash } from "node:crypto";

/**
 * Conditional GET (RFC 9110 §13): an entity tag from what a response was made of, checked before
 * the response is rendered, so a reader polling an unchanged feed costs one query and a 304.
 */
export function entityTag(...parts: readonly (string | number | null)[]): string {
  const hash = createHash("sha256").update(parts.map((p) => String(p)).join("\u0000")).digest("base64url").slice(0, 27);
  return `W/"${hash}"`;
}

/** An HTTP date (IMF-fixdate) for an ISO time. */
export function httpDate(iso: string): string {
  return new Date(iso).toUTCString();
}

function opaque(tag: string): string {
  return tag.trim().replace(/^W\//, "");
}

/** Whether the request's validators show the client already has this version. */
export function isNotModified(request: { headers: Pick<Headers, "get"> }, etag: string, lastModified: string | null): boolean {
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch !== null) {
    // Weak comparison, as GET allows: W/"x" matches "x".
    return ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => opaque(tag) === opaque(etag));
  }
  const since = request.headers.get("if-modified-since");
  if (since === null || lastModified === null) return false;
  const sinceMs = Date.parse(since);
  // HTTP dates have whole seconds; a change within the same second as the validator still counts.
  return !Number.isNaN(sinceMs) && Math.floor(Date.parse(lastModified) / 1000) * 1000 <= sinceMs;
}

export interface Validators {
  etag: string;
  lastModified: string | null;
  cacheControl: string;
}

export function validatorHeaders(v: Validators): Record<string, string> {
  return {
    etag: v.etag,
    "cache-control": v.cacheControl,
    ...(v.lastModified ? { "last-modified": httpDate(v.lastModified) } : {}),
  };
}

/** 304 with the validators, or the response `render` makes, with them too. */
export async function respondConditionally(request: Request, v: Validators, render: () => Response | Promise<Response>, extra: Record<string, string> = {}): Promise<Response> {
  if (isNotModified(request, v.etag, v.lastModified)) {
    return new Response(null, { status: 304, headers: { ...validatorHeaders(v), ...extra } });
  }
  const response = await render();
  for (const [name, value] of Object.entries({ ...validatorHeaders(v), ...extra })) response.headers.set(name, value);
  return response;
}
