import { readEnv } from "@/lib/env";

/**
 * The origin links in feeds and API answers are made absolute with: REDLINE_PUBLIC_URL when the
 * archive is served behind a proxy under its own name, else the Host the request was sent to
 * (Next.js rewrites the request URL's host to "localhost" behind a custom server).
 */
export function publicOrigin(request: Request): string {
  const configured = readEnv().REDLINE_PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  if (host && /^[a-z0-9.-]+(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(host)) return `${url.protocol}//${host}`;
  return url.origin;
}
