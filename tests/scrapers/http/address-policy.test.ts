import { describe, expect, it } from "vitest";
import { checkUrlTarget, isPublicAddress } from "@/scrapers/http/address-policy";

describe("address policy", () => {
  it.each([
    "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
    "::1", "fe80::1", "fc00::1", "fd12:3456::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
  ])("treats %s as not public (loopback, private, link-local, metadata or mapped)", (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["8.8.8.8", "1.1.1.1", "151.101.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("treats %s as public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ["IPv4-compatible around loopback", "::127.0.0.1"],
    ["IPv4-compatible around loopback, as a URL writes it", "::7f00:1"],
    ["IPv4-compatible around the metadata address", "::a9fe:a9fe"],
    ["IPv4-mapped around loopback, as a URL writes it", "::ffff:7f00:1"],
    ["SIIT-translated around loopback", "::ffff:0:7f00:1"],
    ["6to4 around loopback", "2002:7f00:1::"],
    ["6to4 around a private address", "2002:c0a8:101::1"],
    ["NAT64 around loopback", "64:ff9b::127.0.0.1"],
    ["NAT64 around the metadata address", "64:ff9b::a9fe:a9fe"],
    ["local-use NAT64", "64:ff9b:1::808:808"],
    ["Teredo whose client is loopback", "2001:0:4136:e378:8000:63bf:80ff:fffe"],
    ["Teredo whose client is private", "2001:0:4136:e378:8000:63bf:f5ff:fffe"],
    ["Teredo whose server is private", "2001:0:a00:1:8000:63bf:f7f7:f7f7"],
    ["ISATAP around a private address", "2606:4700:1::5efe:10.0.0.1"],
    ["link-local with a zone", "fe80::1%eth0"],
  ])("treats %s (%s) as not public", (_form, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ["6to4 around 8.8.8.8", "2002:0808:0808::"],
    ["NAT64 around 8.8.8.8", "64:ff9b::8.8.8.8"],
    ["Teredo whose server and client are public", "2001:0:4136:e378:8000:63bf:f7f7:f7f7"],
    ["IPv4-compatible around 8.8.8.8", "::808:808"],
  ])("treats %s (%s) as public", (_form, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it("refuses a vendor URL that names a private or link-local address or a local name, unless the operator allows it", () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://localhost:8080/", "http://10.0.0.5/status", "ftp://status.example.com/"]) {
      expect(() => checkUrlTarget(new URL(url), false), url).toThrow();
    }
    expect(() => checkUrlTarget(new URL("http://10.0.0.5/status"), true)).not.toThrow();
    expect(() => checkUrlTarget(new URL("https://status.example.com/"), false)).not.toThrow();
  });

  it.each(["http://localhost.:3999/", "http://foo.localhost./", "http://metadata.google.internal./", "http://localhost../", "http://intranet./"])(
    "refuses %s: a trailing dot names the same local host",
    (url) => {
      expect(() => checkUrlTarget(new URL(url), false)).toThrow(/local host name/);
    },
  );

  it.each(["http://[::127.0.0.1]:3999/", "http://[2002:7f00:1::]/", "http://[64:ff9b::7f00:1]/", "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/"])(
    "refuses %s, an IPv6 address that leads to 127.0.0.1, and says so",
    (url) => {
      expect(() => checkUrlTarget(new URL(url), false)).toThrow(/leads to 127\.0\.0\.1, a private, loopback or link-local address/);
    },
  );

  it.each(["https://example.com./", "https://status.example.com./api/v2/summary.json", "http://[2002:808:808::]/", "http://[64:ff9b::808:808]/"])(
    "allows %s, a public host however it is written",
    (url) => {
      expect(() => checkUrlTarget(new URL(url), false)).not.toThrow();
    },
  );
});
