import type { Page, Request } from "playwright";
import Parser from "rss-parser";
import { describe, expect, it } from "vitest";
import { startE2eApp } from "@/tests/e2e/support/e2e-app";

const app = startE2eApp("hostile");

const INCIDENT = "/vendors/hostile/incidents/hostile00001";
/** What the vendor's page.url, title, update and postmortem try to run; none may. */
const VENDOR_SCRIPTS = ["window.__xss=1", "window.__xss=5", "window.__xss=8"];

interface DomFacts {
  xss: unknown;
  vendorScripts: string[];
  handlers: number;
  images: string[];
  payloadHrefs: string[];
  external: Array<{ href: string; rel: string }>;
}

function readDom(page: Page): Promise<DomFacts> {
  return page.evaluate((scripts) => {
    const anchors = Array.from(document.querySelectorAll("a[href]")).map((a) => ({ href: (a as HTMLAnchorElement).href, rel: a.getAttribute("rel") ?? "" }));
    return {
      xss: (window as unknown as { __xss?: unknown }).__xss,
      vendorScripts: Array.from(document.scripts).map((s) => s.textContent?.trim() ?? "").filter((text) => scripts.includes(text)),
      handlers: document.querySelectorAll("[onerror], [onload], [onclick]").length,
      images: Array.from(document.images).map((i) => i.src),
      payloadHrefs: anchors.filter((a) => a.href.includes("__xss")).map((a) => a.href),
      external: anchors.filter((a) => /^https?:/.test(a.href) && new URL(a.href).origin !== location.origin),
    };
  }, VENDOR_SCRIPTS);
}

/** Nothing the vendor wrote became markup, ran, or made the browser fetch anything. */
async function expectInert(page: Page, requested: readonly string[]): Promise<void> {
  const path = new URL(page.url()).pathname;
  const dom = await readDom(page);
  expect(dom.xss, path).toBeUndefined();
  expect(dom.vendorScripts, path).toEqual([]);
  expect(dom.handlers, path).toBe(0);
  expect(dom.images, path).toEqual([]);
  expect(dom.payloadHrefs, path).toEqual([]);
  for (const link of dom.external) {
    expect(link.rel.split(/\s+/), `${path}: ${link.href}`).toEqual(expect.arrayContaining(["nofollow", "noopener"]));
  }
  expect(requested.filter((p) => p.endsWith("/x")), path).toEqual([]);
}

/** Open a page with JavaScript on and check it is inert once loaded. */
async function visitInert(path: string, name: string): Promise<Page> {
  const page = await app().page();
  const requested: string[] = [];
  const record = (request: Request) => requested.push(new URL(request.url()).pathname);
  page.on("request", record);
  try {
    await app().visit(page, path, name);
    await expectInert(page, requested);
  } finally {
    page.off("request", record);
  }
  return page;
}

describe("vendor text with markup in it", () => {
  it("shows a hostile update body as the text it is, on the incident page", async () => {
    const page = await visitInert(INCIDENT, "incident");
    await expect(page.locator("h1").textContent()).resolves.toBe("<script>window.__xss=5</script>Login failures");
    const update = page.locator("ol.timeline li").first();
    await expect(update.textContent()).resolves.toContain(
      "<script>window.__xss=1</script><img src=x onerror=\"window.__xss=2\"> See <a href=\"javascript:window.__xss=3\">details</a> or [the runbook](javascript:window.__xss=4).",
    );
    expect(await page.getByText("<script>window.__xss=1</script>", { exact: false }).first().isVisible()).toBe(true);
    await expect(page.locator("dl.facts").textContent()).resolves.toContain("Login <b>portal</b>");
  });

  it("renders a hostile postmortem's Markdown without its script, image or javascript: links", async () => {
    const page = await visitInert(INCIDENT, "incident-postmortem");
    const postmortem = page.locator("#postmortem-heading + .postmortem .vendor-markdown");
    await expect(postmortem.locator("h3").textContent()).resolves.toBe("What happened");
    await expect(postmortem.textContent()).resolves.toContain("<script>window.__xss=8</script>");
    const links = await postmortem.locator("a[href]").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href"), a.getAttribute("rel")]));
    expect(links).toEqual([["The vendor's write-up", "https://hostile.example/postmortem", "nofollow noopener noreferrer"]]);
  });

  it("keeps it inert when the page is rendered by the client router after a link is followed", async () => {
    const page = await app().newPage();
    const requested: string[] = [];
    page.on("request", (request) => requested.push(new URL(request.url()).pathname));
    await app().visit(page, "/vendors/hostile", "vendor-before-client-navigation");
    await page.getByRole("link", { name: "<script>window.__xss=5</script>Login failures" }).first().click();
    await page.waitForURL(new RegExp(`${INCIDENT}$`));
    await page.locator("ol.timeline").waitFor();
    await app().screenshot(page, "incident-after-client-navigation");
    await expectInert(page, requested);
    await expect(page.locator("ol.timeline").textContent()).resolves.toContain("<script>window.__xss=1</script>");
  });

  it("keeps the payload inert in the change page's Before, After and word changes", async () => {
    const page = await visitInert(`${INCIDENT}/versions/2`, "change");
    const update = page.locator(".change-block", { has: page.locator("del, ins") }).first();
    await expect(update.locator(".side-before").textContent()).resolves.toContain("<img src=x onerror=\"window.__xss=2\">");
    await expect(update.locator(".side-after").textContent()).resolves.toContain("Still investigating.");
    expect((await update.locator("ins").allTextContents()).join("")).toContain("Still investigating.");
  });

  it("keeps it inert in the change lists, the vendor page, the comparison and search results", async () => {
    for (const [path, name] of [
      ["/?vendor=hostile&show=all", "home"],
      ["/vendors/hostile", "vendor"],
      ["/vendors/hostile/changes", "vendor-changes"],
      [`${INCIDENT}/versions/1`, "first-version"],
      [`${INCIDENT}/compare?from=1&to=2`, "compare"],
      ["/search?q=onerror", "search"],
    ] as const) {
      const page = await visitInert(path, name);
      await expect(page.locator("main").textContent(), path).resolves.toContain("<script>window.__xss=");
    }
  });

  it("marks links to vendor sites nofollow and noopener", async () => {
    const incident = await visitInert("/vendors/acme/incidents/acmeapi00001", "acme-incident");
    const live = incident.getByRole("link", { name: "View the live incident" });
    await expect(live.getAttribute("href")).resolves.toBe("https://status.acme.example/incidents/acmeapi00001");
    expect((await live.getAttribute("rel"))?.split(" ")).toEqual(expect.arrayContaining(["nofollow", "noopener"]));

    const vendor = await visitInert("/vendors/acme", "acme-vendor");
    const page = vendor.getByRole("link", { name: "Live status page" });
    await expect(page.getAttribute("href")).resolves.toBe("https://status.acme.example/");
    expect((await page.getAttribute("rel"))?.split(" ")).toEqual(expect.arrayContaining(["nofollow", "noopener"]));
  });

  it("serves exports of hostile text as downloads the browser will not sniff into HTML", async () => {
    for (const format of ["md", "json"]) {
      const response = await fetch(`${app().baseUrl}${INCIDENT}/export.${format}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(await response.text()).toContain("<script>window.__xss=1</script>");
    }
  });

  it("keeps it inert in every feed and API answer a browser opens, and escapes it in feed content", async () => {
    const addresses = [
      ...["atom", "rss", "json"].flatMap((f) => [`${INCIDENT}/feed.${f}`, `/vendors/hostile/feed.${f}`]),
      `/api/v1${INCIDENT}`,
      `/api/v1${INCIDENT}/versions/1`,
      "/api/v1/changes?vendor=hostile",
    ];
    const page = await app().newPage();
    for (const address of addresses) {
      const response = await page.goto(address);
      expect(response?.status(), address).toBe(200);
      expect(response?.headers()["content-type"] ?? "", address).not.toMatch(/^text\/html/);
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss), address).toBeUndefined();
    }
    // In the feeds' HTML content the vendor's markup is text: escaped, never a tag.
    const feed = await new Parser().parseString(await (await fetch(`${app().baseUrl}${INCIDENT}/feed.atom`)).text());
    const html = feed.items.map((i) => String((i as { content?: string }).content ?? "")).join("\n");
    expect(html).toContain("&lt;script&gt;window.__xss=1&lt;/script&gt;");
    // Parsed as a feed reader would (DOMParser runs nothing): no element or attribute that could act.
    const parsed = await page.evaluate((markup) => {
      const doc = new DOMParser().parseFromString(markup, "text/html");
      const all = Array.from(doc.querySelectorAll("*"));
      return {
        active: doc.querySelectorAll("script, img, iframe, object, embed, style, link").length,
        handlers: all.filter((e) => Array.from(e.attributes).some((a) => a.name.startsWith("on"))).length,
        unsafeLinks: Array.from(doc.querySelectorAll("a[href]")).filter((a) => !/^https?:/.test(a.getAttribute("href") ?? "")).length,
      };
    }, html);
    expect(parsed).toEqual({ active: 0, handlers: 0, unsafeLinks: 0 });
  });

  it("gives a reader that renders RSS titles as HTML the vendor's words only, no tag even escaped", async () => {
    for (const address of [`${INCIDENT}/feed.rss`, "/vendors/hostile/feed.rss"]) {
      const body = await (await fetch(`${app().baseUrl}${address}`)).text();
      const feed = await new Parser().parseString(body);
      const titles = [feed.title ?? "", ...feed.items.map((i) => i.title ?? "")];
      expect(titles.length, address).toBeGreaterThan(1);
      for (const title of titles) expect(title, address).not.toMatch(/<[a-z/!?]|javascript:|__xss/i);
      expect(feed.items.map((i) => i.title).every((t) => t?.endsWith("Login failures")), address).toBe(true);
    }
  });
});
