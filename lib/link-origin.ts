import { isIPv6 } from "node:net";

/**
 * The origin absolute links in feeds, API answers and messages are made with: the public URL when
 * there is one, else the address the web server listens on. Never a request's Host header: anyone
 * can send any Host, and an answer naming it would send readers (and a shared cache's later
 * readers) wherever the sender chose.
 */
export function linkOrigin(publicUrl: string | undefined, host: string, port: number): string {
  if (publicUrl) return new URL(publicUrl).origin;
  return `http://${followableHost(host)}:${port}`;
}

/** A listening address's origin as links can name it: an unspecified host (all interfaces) becomes its loopback. */
export function followableOrigin(listening: URL): string {
  return `${listening.protocol}//${followableHost(listening.hostname)}${listening.port ? `:${listening.port}` : ""}`;
}

/** The loopback names an unspecified address: the one address that surely reaches the server from where it runs. */
function followableHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (bare === "" || bare === "0.0.0.0") return "127.0.0.1";
  if (bare === "::") return "[::1]";
  return isIPv6(bare) ? `[${bare}]` : bare;
}
