import { readEnv } from "@/lib/env";
import { followableOrigin } from "@/lib/link-origin";
import { listeningOrigin } from "@/server/http/listening-origin";

/**
 * The origin links in feeds and API answers are made absolute with: REDLINE_PUBLIC_URL, else the
 * address this web server listens on, in the scheme of the request's URL (a trusted proxy's
 * X-Forwarded-Proto; anyone else's was dropped). Never the Host header, which the sender chooses.
 * Without a server that recorded its address (a handler called on its own), the request's URL
 * stands for it: Next.js builds that from its own host name and port, not from Host, too.
 */
export function publicOrigin(request: Request): string {
  const configured = readEnv().REDLINE_PUBLIC_URL;
  if (configured) return new URL(configured).origin;
  const url = new URL(request.url);
  const listening = listeningOrigin();
  return listening ? `${url.protocol}//${new URL(listening).host}` : followableOrigin(url);
}
