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
// 64:ff9b::/96 (NAT64) is judged by the IPv4 address it carries; the local-use prefix has no fixed place for it.
for (const [net, prefix] of [
  ["::", 128], ["::1", 128], ["fc00::", 7], ["fe80::", 10], ["ff00::", 8], ["2001:db8::", 32], ["64:ff9b:1::", 48],
] as const) {
  BLOCKED.addSubnet(net, prefix, "ipv6");
}

/** An IPv6 address as its eight 16-bit groups (a dotted IPv4 tail read as the last two). */
function ipv6Groups(address: string): number[] {
  let text = address.split("%")[0] ?? "";
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2).map(Number) as [number, number, number, number];
    text = `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const read = (part: string) => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  const front = read(head);
  if (tail === undefined) return front;
  const back = read(tail);
  return [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}

function ipv4Of(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * The IPv4 addresses an IPv6 address leads to, in every standard form that carries one:
 * IPv4-compatible and -mapped, SIIT-translated, NAT64, 6to4, Teredo (server and client) and ISATAP.
 */
export function embeddedIpv4Addresses(address: string): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = ipv6Groups(address);
  const lastFour = ipv4Of(g6, g7);
  const found: string[] = [];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0) {
    if (g4 === 0 && (g5 === 0 || g5 === 0xffff)) found.push(lastFour);
    if (g4 === 0xffff && g5 === 0) found.push(lastFour);
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) found.push(lastFour);
  if (g0 === 0x2002) found.push(ipv4Of(g1, g2));
  // Teredo keeps the client's address with every bit flipped.
  if (g0 === 0x2001 && g1 === 0) found.push(ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff));
  if ((g4 & ~0x0200) === 0 && g5 === 0x5efe) found.push(lastFour);
  return found;
}

/** Whether an IP address is one a public status page could have; an IPv6 address that leads to an IPv4 one is judged by it. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !BLOCKED.check(address, "ipv4");
  if (family === 0) return false;
  const bare = address.split("%")[0] ?? "";
  return !BLOCKED.check(bare, "ipv6") && embeddedIpv4Addresses(bare).every(isPublicAddress);
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
  if (isIP(host) !== 0) {
    if (isPublicAddress(host)) return;
    const leadsTo = isIP(host) === 6 ? embeddedIpv4Addresses(host).find((v4) => !isPublicAddress(v4)) : undefined;
    const what = leadsTo ? `leads to ${leadsTo}, a private, loopback or link-local address` : "is a private, loopback or link-local address";
    throw new AddressPolicyError(`${url.host} ${what} (set REDLINE_ALLOW_PRIVATE_URLS=1 to allow)`);
  }
  // A name with a trailing dot is the same name, fully qualified: "localhost." is localhost.
  const name = host.replace(/\.+$/, "");
  if (LOCAL_NAMES.test(name) || !name.includes(".")) {
    throw new AddressPolicyError(`${url.host} is a local host name (set REDLINE_ALLOW_PRIVATE_URLS=1 to allow)`);
  }
}
