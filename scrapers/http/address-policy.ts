import { BlockList, isIP } from "node:net";

/**
 * Addresses a vendor URL must never reach: loopback, private, link-local, carrier-grade NAT,
 * unspecified, multicast, reserved and documentation ranges, in IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16],
  ["172.16.0.0", 12], ["192.0.0.0", 24], ["192.0.2.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15],
  ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 4], ["240.0.0.0", 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["2001:db8::", 32], ["64:ff9b::", 96],
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}

const MAPPED_V4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;

/** Whether an IP address is one a public status page could have. */
export function isPublicAddress(address: string): boolean {
  const mapped = MAPPED_V4.exec(address);
  if (mapped?.[1]) return isPublicAddress(mapped[1]);
  const family = isIP(address);
  if (family === 0) return false;
  return !BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

const LOCAL_NAMES = /(^|\.)(localhost|localdomain|local|internal|home\.arpa)$/i;

export class AddressPolicyError extends Error {
  readonly kind = "blocked-address";
}

/**
 * Refuse a URL that names a non-public address or a local host name, before any DNS lookup.
 * Resolved addresses are checked again at connect time, on every redirect.
 */
export function checkUrlTarget(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new AddressPolicyError(`only http and https URLs can be polled, not ${url.protocol}`);
  }
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0 && !isPublicAddress(host)) {
    throw new AddressPolicyError(`${url.host} is a private, loopback or link-local address (set REDLINE_ALLOW_PRIVATE_URLS=1 to allow)`);
  }
  if (isIP(host) === 0 && (LOCAL_NAMES.test(host) || !host.includes("."))) {
    throw new AddressPolicyError(`${url.host} is a local host name (set REDLINE_ALLOW_PRIVATE_URLS=1 to allow)`);
  }
}
