import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("security-headers");

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";
const PAGES = ["/", "/vendors", "/vendors/acme", INCIDENT, `${INCIDENT}/versions/2`, "/search?q=webhook", "/vendors/nope", "/?kind=bogus"];

describe("security headers on every page", () => {
  it("send a policy with no inline script but the page's own nonced scripts, no framing, no sniffing", async () => {
    for (const path of PAGES) {
      const response = await fetch(`${app().baseUrl}${path}`);
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy, path).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(policy, path).not.toContain("unsafe-inline");
      expect(policy, path).toContain("frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
      const nonce = /'nonce-([^']+)'/.exec(policy)?.[1] ?? "";
      const html = await response.text();
      // Next leaves its not-found page's scripts without the nonce: the policy blocks them, and
      // that page is complete without script (checked below).
      if (response.status === 404) continue;
      // Every inline script and style in the page carries this response's nonce.
      for (const tag of html.match(/<(?:script|style)\b[^>]*>/g) ?? []) {
        if (/\bsrc=/.test(tag)) continue;
        expect(tag, path).toContain(`nonce="${nonce}"`);
      }
    }
  });

  it("send the headers on answers that are no pages too: health checks, webhook refusals, static misses, malformed addresses", async () => {
    for (const [method, path] of [["GET", "/healthz"], ["GET", "/readyz"], ["POST", "/api/v1/hooks/nobody/guess"], ["GET", "/_next/static/nope.js"], ["GET", "/api/v1/vendors/%E0%A4%A"]] as const) {
      const response = await fetch(`${app().baseUrl}${path}`, { method, ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
      await response.arrayBuffer();
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("content-security-policy") ?? "", path).toContain("frame-ancestors 'none'");
      // Served over plain http with no https public URL: no HSTS.
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
    }
  });

  it("send the Referrer-Policy the unsubscribe page asks for, whose address holds a secret", async () => {
    const response = await fetch(`${app().baseUrl}/unsubscribe?t=guess`);
    await response.arrayBuffer();
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
  });

  it("serves the not-found page complete even though the policy blocks its scripts", async () => {
    const page = await app().newPage();
    await app().visit(page, "/vendors/nope", "csp-not-found", 404);
    await expect(page.locator("h1").textContent()).resolves.toMatch(/\S/);
    await expect(page.getByRole("link", { name: "Vendors" }).first().isVisible()).resolves.toBe(true);
  });

  it("gives two readers of the same page different nonces", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${app().baseUrl}${INCIDENT}`);
      await response.arrayBuffer();
      nonces.add(/'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1] ?? "");
    }
    expect(nonces.size).toBe(3);
  });

  it("runs the pages' own scripts under the policy: client navigation works and nothing is blocked", async () => {
    const page = await app().newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    await app().visit(page, "/vendors/acme", "csp-vendor");
    await page.getByRole("link", { name: "All Acme Cloud changes" }).first().click();
    await page.waitForURL(/\/vendors\/acme\/changes$/);
    await expect(page.locator("h1").textContent()).resolves.toBe("All Acme Cloud changes");
    // Hydrated: Next's router is running, which needs its inline scripts.
    await expect(page.evaluate(() => "next" in window || "__next_f" in window)).resolves.toBe(true);
    expect(violations).toEqual([]);
  });
});
