/**
 * The headers every answer carries. The Content-Security-Policy allows no inline script but the
 * framework's own, which carries the response's nonce; nothing loads from another origin; no page
 * may be framed. Vendor text is already sanitized; this is the second line.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function securityHeaders(nonce: string, referrerPolicy: string = DEFAULT_REFERRER_POLICY): Record<"content-security-policy" | "x-content-type-options" | "referrer-policy" | "x-frame-options", string> {
  return {
    "content-security-policy": contentSecurityPolicy(nonce),
    "x-content-type-options": "nosniff",
    "referrer-policy": referrerPolicy,
    "x-frame-options": "DENY",
  };
}

const DEFAULT_REFERRER_POLICY = "strict-origin-when-cross-origin";

/**
 * The Referrer-Policy a route needs: `/unsubscribe` carries a secret token in its address, which no
 * link followed from it may pass on; every other address the default.
 */
export function referrerPolicyFor(pathname: string): string {
  return pathname === "/unsubscribe" || pathname.startsWith("/unsubscribe/") ? "no-referrer" : DEFAULT_REFERRER_POLICY;
}

/** One year, as HSTS preload lists ask; subdomains are the operator's to vouch for, so not included. */
const HSTS = "max-age=31536000";

/**
 * What every answer carries before its route says more (health checks, webhook answers, errors,
 * static files and their misses): no sniffing, no framing, no loading anything, and HSTS when the
 * site is served over https (a public URL that says so, or a trusted proxy's `X-Forwarded-Proto`).
 * Pages replace the policy with their own nonced one.
 */
export function baselineHeaders(pathname: string, https: boolean): Record<string, string> {
  return {
    "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": referrerPolicyFor(pathname),
    "x-frame-options": "DENY",
    ...(https ? { "strict-transport-security": HSTS } : {}),
  };
}

/**
 * Whether an answer goes out over https: the public URL says so, or the request came through a
 * trusted proxy that says it came in over https (an untrusted client's forwarding headers are
 * dropped before this is asked).
 */
export function servedOverHttps(publicUrl: string | undefined, forwardedProto: string | string[] | undefined): boolean {
  if (publicUrl?.startsWith("https:")) return true;
  const first = (Array.isArray(forwardedProto) ? forwardedProto[0] : forwardedProto)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

/** A fresh, unguessable nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** The nonce a CSP header value carries, if any. */
export function nonceOf(csp: string): string | null {
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(csp)?.[1] ?? null;
}
