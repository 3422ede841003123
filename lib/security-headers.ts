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

export function securityHeaders(nonce: string): Record<"content-security-policy" | "x-content-type-options" | "referrer-policy" | "x-frame-options", string> {
  return {
    "content-security-policy": contentSecurityPolicy(nonce),
    "x-content-type-options": "nosniff",
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
  };
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
