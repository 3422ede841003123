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

  it("refuses a vendor URL that names a private or link-local address or a local name, unless the operator allows it", () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://localhost:8080/", "http://10.0.0.5/status", "ftp://status.example.com/"]) {
      expect(() => checkUrlTarget(new URL(url), false), url).toThrow();
    }
    expect(() => checkUrlTarget(new URL("http://10.0.0.5/status"), true)).not.toThrow();
    expect(() => checkUrlTarget(new URL("https://status.example.com/"), false)).not.toThrow();
  });
});
