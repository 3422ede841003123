import { describe, expect, it } from "vitest";
import { baselineHeaders, referrerPolicyFor, securityHeaders, servedOverHttps } from "@/lib/security-headers";

describe("security headers", () => {
  it("give every answer a floor: no sniffing, no framing, nothing loaded, and HSTS only over https", () => {
    const plain = baselineHeaders("/healthz", false);
    expect(plain).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "content-security-policy": "default-src 'none'; frame-ancestors 'none'" });
    expect(plain["strict-transport-security"]).toBeUndefined();
    expect(baselineHeaders("/healthz", true)["strict-transport-security"]).toBe("max-age=31536000");
  });

  it("say https from the public URL or a trusted proxy's X-Forwarded-Proto, its first hop", () => {
    expect(servedOverHttps("https://redline.example", undefined)).toBe(true);
    expect(servedOverHttps("http://redline.example", undefined)).toBe(false);
    expect(servedOverHttps(undefined, "https")).toBe(true);
    expect(servedOverHttps(undefined, "HTTPS, http")).toBe(true);
    expect(servedOverHttps(undefined, "http,https")).toBe(false);
    expect(servedOverHttps(undefined, undefined)).toBe(false);
  });

  it("keep the unsubscribe address, which holds a secret token, out of every Referer", () => {
    expect(referrerPolicyFor("/unsubscribe")).toBe("no-referrer");
    expect(baselineHeaders("/unsubscribe", false)["referrer-policy"]).toBe("no-referrer");
    expect(securityHeaders("n", referrerPolicyFor("/unsubscribe"))["referrer-policy"]).toBe("no-referrer");
    expect(referrerPolicyFor("/vendors")).toBe("strict-origin-when-cross-origin");
  });
});
