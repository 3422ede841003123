import { describe, expect, it } from "vitest";
import { newNonce, nonceOf, securityHeaders } from "@/lib/security-headers";

describe("security headers", () => {
  it("allow no inline script but the nonced framework's, no other origin, no framing", () => {
    const headers = securityHeaders("abc123==");
    const policy = Object.fromEntries(headers["content-security-policy"].split("; ").map((d) => [d.split(" ")[0], d]));
    expect(policy["script-src"]).toBe("script-src 'self' 'nonce-abc123==' 'strict-dynamic'");
    expect(headers["content-security-policy"]).not.toContain("unsafe-inline");
    expect(headers["content-security-policy"]).not.toContain("unsafe-eval");
    expect(policy["frame-ancestors"]).toBe("frame-ancestors 'none'");
    expect(policy["object-src"]).toBe("object-src 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(nonceOf(headers["content-security-policy"])).toBe("abc123==");
  });

  it("makes a different nonce every time", () => {
    const nonces = new Set(Array.from({ length: 1_000 }, newNonce));
    expect(nonces.size).toBe(1_000);
    for (const n of nonces) expect(n).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
