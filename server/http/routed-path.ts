/**
 * The path of a request as the router resolves it, for decisions that must hold however a client
 * spells it (the rate limit): Next.js routes `/api/./v1/…`, `/api/%2e/v1/…`, `/api\v1/…` and
 * `/api/x/../v1/…` to `/api/v1/…` (WHATWG URL parsing resolves dot segments, written `.` or `%2e`,
 * and reads `\` as `/`), and repeated slashes to the single-slash path. Percent escapes are
 * decoded first, so `/%61pi/v1/…` counts as what it names; a malformed escape never gets here
 * (the web server answers it with a 400 first) and is left as written. Over-matching is harmless
 * where this is used: a path that names no route is only counted, never served differently.
 */
export function routedPathname(url: string): string {
  const raw = url.split(/[?#]/)[0] || "/";
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Left as written: the caller has already refused it, or it names nothing.
  }
  // A `?` or `#` that was written escaped is part of the path, not its end: keep it so.
  const path = `/${decoded.replace(/\\/g, "/").replace(/^\/+/, "")}`.replace(/\/{2,}/g, "/").replace(/[?#]/g, encodeURIComponent);
  return new URL(path, "http://routed.invalid").pathname;
}
