import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("status");

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";

async function get(path: string): Promise<{ status: number; type: string | null; html: string }> {
  const response = await fetch(`${app().baseUrl}${path}`);
  return { status: response.status, type: response.headers.get("content-type"), html: await response.text() };
}

describe("addresses the archive does not have", () => {
  it.each([
    ["an unknown vendor", "/vendors/nope", "vendor"],
    ["an unknown incident", "/vendors/acme/incidents/nope00000000", "incident"],
    ["an unknown version", `${INCIDENT}/versions/99`, "version"],
  ])("shows %s the 404 page, with ways back into the archive", async (_what, path, name) => {
    const page = await app().page();
    await app().visit(page, path, `404-${name}`, 404);
    await expect(page.locator("h1").textContent()).resolves.toBe("Not found");
    await expect(page.getByRole("link", { name: "latest changes" }).getAttribute("href")).resolves.toBe("/");
  });

  it.each([
    ["another vendor's incident", "/vendors/hostile/incidents/acmeapi00001"],
    ["an incident key no id makes", "/vendors/acme/incidents/~zz"],
    ["a version that is not a number", `${INCIDENT}/versions/latest`],
    ["version 0", `${INCIDENT}/versions/0`],
    ["a comparison with an unknown version", `${INCIDENT}/compare?from=1&to=99`],
    ["the changes of an unknown vendor", "/vendors/nope/changes"],
    ["a path no route has", "/incidents"],
  ])("answers %s with 404", async (_what, path) => {
    expect((await get(path)).status).toBe(404);
  });

  it.each([
    "/vendors/nope/incidents/acmeapi00001/export.md",
    `${INCIDENT}/versions/99/export.json`,
    "/vendors/acme/incidents/nope00000000/export.json",
  ])("answers an export of something unknown with 404 and no download: %s", async (path) => {
    const response = await fetch(`${app().baseUrl}${path}`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-disposition")).toBeNull();
  });

  // Next.js server-renders notFound() as an empty shell (vercel/next.js#62228); the proxy sends
  // archive addresses that name nothing to the full not-found page instead.
  it("serves the 404 page readable without JavaScript", async () => {
    const page = await app().page({ javaScriptEnabled: false });
    await app().visit(page, "/vendors/nope", "404-vendor-no-js", 404);
    // The loaded page as it is, without waiting: an empty shell has no heading to wait for.
    expect(await page.locator("h1").allTextContents()).toEqual(["Not found"]);
  });
});

describe("bad query parameters", () => {
  it("shows a 400 page that says what was wrong and links to the page without them", async () => {
    const page = await app().page();
    await app().visit(page, "/?kind=bogus", "400-kind", 400);
    await expect(page.locator("h1").textContent()).resolves.toBe("Bad request");
    await expect(page.locator("main strong").textContent()).resolves.toBe('kind: unknown change kind "bogus"');
    await expect(page.getByRole("link", { name: "Open / without the parameters" }).getAttribute("href")).resolves.toBe("/");
    await expect(page.getByRole("link", { name: "Update edited" }).getAttribute("href")).resolves.toBe("/?kind=update-edited");
    expect(await page.content()).not.toContain("README");
  });

  it("frames the 400 page in the site's layout: the same header, navigation, footer and stylesheet as every page", async () => {
    const frame = async (path: string, status: number) => {
      const page = await app().page();
      await app().visit(page, path, `frame-${status}`, status);
      return {
        nav: await page.locator("header.site-header nav a").evaluateAll((links) => links.map((a) => `${a.textContent ?? ""} ${a.getAttribute("href") ?? ""}`)),
        footer: await page.locator("footer.site-footer").textContent(),
        stylesheets: await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((l) => l.getAttribute("href") ?? "")),
        brandColour: await page.locator("header.site-header .brand").evaluate((el) => getComputedStyle(el).color),
      };
    };
    const home = await frame("/", 200);
    const bad = await frame("/search?page=0", 400);
    expect(bad.nav).toEqual(home.nav);
    expect(bad.footer).toBe(home.footer);
    expect(bad.stylesheets.length).toBeGreaterThan(0);
    expect(home.stylesheets).toEqual(expect.arrayContaining(bad.stylesheets));
    expect(bad.brandColour).toBe(home.brandColour);
  });

  it.each([
    ["/search?page=99", "page: at most 20 pages of results"],
    ["/search?q=x&page=0", "page: "],
    ["/vendors/acme?from=2026-02-30", "from: not a real date"],
    ["/vendors/acme?since=2026-02-30", "since: not a real date"],
    ["/compare?vendors=acme", "vendors: compare at least two vendors"],
    ["/compare?vendors=a,b,c,d,e", "vendors: compare at most four vendors"],
    ["/compare?vendors=acme,nosuchvendor", "vendors: no vendor &#34;nosuchvendor&#34; in this archive"],
    ["/compare?vendors=acme,hostile&since=2026-13-01", "since: not a real date"],
    ["/vendors/acme/changes?kind=update-edited&kind=nope", "kind: unknown change kind "],
    [`${INCIDENT}?utm_source=x`, "unknown parameter &#34;utm_source&#34;"],
    [`${INCIDENT}/compare?from=1`, "to: expected a version number"],
  ])("answers %s with 400 and the reason", async (path, reason) => {
    const { status, type, html } = await get(path);
    expect(status).toBe(400);
    expect(type).toBe("text/html; charset=utf-8");
    expect(html).toContain("<h1>Bad request</h1>");
    expect(html).toContain(`<strong>${reason}`);
  });
});
