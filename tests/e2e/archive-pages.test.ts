import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("archive-pages");

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";

/** What frames a page: the parts every page shares, as the browser sees them. */
async function frameOf(path: string) {
  const page = await app().page();
  await app().visit(page, path, `frame-${path.split("/").length}`);
  return {
    nav: await page.locator("header.site-header nav a").evaluateAll((links) => links.map((a) => `${a.textContent ?? ""} ${a.getAttribute("href") ?? ""}`)),
    brand: await page.locator("header.site-header .brand").getAttribute("href"),
    skip: await page.locator("a.skip-link").getAttribute("href"),
    footer: await page.locator("footer.site-footer").textContent(),
    stylesheets: await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? "")),
    description: await page.locator('meta[name="description"]').getAttribute("content"),
    viewport: await page.locator('meta[name="viewport"]').getAttribute("content"),
    alternates: await page.locator('link[rel="alternate"]').evaluateAll((links) => links.map((l) => `${l.getAttribute("type") ?? ""} ${l.getAttribute("href") ?? ""}`)),
    title: await page.title(),
    lang: await page.locator("html").getAttribute("lang"),
    scripts: await page.locator("script").count(),
    bodyFont: await page.locator("body").evaluate((el) => getComputedStyle(el).fontFamily),
  };
}

describe("incident and change pages, rendered by the web server without Next", () => {
  it("frame the page as every other page does, with the incident's feeds and no script", async () => {
    const home = await frameOf("/");
    for (const path of [INCIDENT, `${INCIDENT}/versions/2`]) {
      const own = await frameOf(path);
      expect(own.nav).toEqual(home.nav);
      expect([own.brand, own.skip, own.footer, own.description, own.viewport, own.lang]).toEqual([home.brand, home.skip, home.footer, home.description, home.viewport, home.lang]);
      expect(own.stylesheets.length).toBeGreaterThan(0);
      expect(home.stylesheets).toEqual(expect.arrayContaining(own.stylesheets));
      expect(own.bodyFont).toBe(home.bodyFont);
      expect(own.alternates).toEqual([
        `application/atom+xml ${INCIDENT}/feed.atom`,
        `application/rss+xml ${INCIDENT}/feed.rss`,
        `application/feed+json ${INCIDENT}/feed.json`,
      ]);
      expect(own.title).toMatch(/^Acme Cloud: .+ · Redline$/);
      expect(own.scripts).toBe(0);
    }
  });

  it("are kept by the page cache and answered from it, HEAD included", async () => {
    const url = `${app().baseUrl}${INCIDENT}/versions/3`;
    const first = await fetch(url);
    const firstBody = await first.text();
    const second = await fetch(url);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get("x-redline-cache")).toBe("hit");
    expect(await second.text()).toBe(firstBody);
    expect(first.headers.get("content-security-policy")).toMatch(/default-src 'self'/);
    expect(first.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(firstBody));
  });

  it("leave what they do not answer to Next: unknown incidents get its 404 page, parameters its 400; a malformed address is a 400", async () => {
    const missing = await fetch(`${app().baseUrl}/vendors/acme/incidents/nope00000000`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Not found");
    const bad = await fetch(`${app().baseUrl}${INCIDENT}?x=1`);
    expect(bad.status).toBe(400);
    const malformed = await fetch(`${app().baseUrl}/vendors/acme/incidents/%E0%A4%A`);
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).toContain("malformed percent escape");
  });

  it("count an API request against the client's budget however its path is spelled", async () => {
    for (const path of ["/api/v1/vendors/acme", "/api/./v1/vendors/acme", "/api//v1/vendors/acme", "/%61pi/v1/vendors/acme"]) {
      const res = await fetch(`${app().baseUrl}${path}`, { redirect: "manual" });
      expect(`${path} ${res.headers.get("ratelimit") === null ? "not counted" : "counted"}`).toBe(`${path} counted`);
    }
  });

  it("answer a malformed escape in an API or webhook address with a 400 problem document, never a 500", async () => {
    for (const [method, path] of [["GET", "/api/v1/vendors/%E0%A4%A"], ["POST", "/api/v1/hooks/%E0%A4%A/x"], ["POST", "/api/v1/hooks/acme/%E0%A4%A"], ["GET", "/api/v1/vendors/acme/incidents/%E0%A4%A"]] as const) {
      const res = await fetch(`${app().baseUrl}${path}`, { method, ...(method === "POST" ? { body: "{}", headers: { "content-type": "application/json" } } : {}) });
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 400`);
      expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.json()).toMatchObject({ status: 400, detail: "the address holds a malformed percent escape" });
    }
  });
});
