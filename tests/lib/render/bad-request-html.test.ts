import { describe, expect, it } from "vitest";
import { CHANGE_KIND_NAMES } from "@/lib/change-kinds";
import { renderBadRequestPage } from "@/lib/render/bad-request-html";
import { SITE_FOOTER, SITE_NAV } from "@/lib/render/site-frame";

describe("the 400 page", () => {
  it("is framed like every page: the site's header, navigation and footer around the reason", () => {
    const html = renderBadRequestPage("page: pages start at 1", "/search", "n0nce", ["/_next/static/chunks/site.css"]);
    expect(html).toContain('<header class="site-header"><a href="/" class="brand">Redline</a>');
    for (const item of SITE_NAV) expect(html).toContain(`<li><a href="${item.href}">${item.label}</a></li>`);
    expect(html).toContain(`<footer class="site-footer">${SITE_FOOTER}</footer>`);
    expect(html).toContain('<link rel="stylesheet" href="/_next/static/chunks/site.css">');
    expect(html).not.toContain("<style");
    expect(html).toContain("<strong>page: pages start at 1</strong>");
    expect(html).not.toMatch(/README/);
  });

  it("falls back to an inline style carrying the nonce when no built stylesheet is known", () => {
    expect(renderBadRequestPage("x: y", "/", "n0nce")).toContain('<style nonce="n0nce">');
  });

  it("escapes the reason and never links off the site", () => {
    const html = renderBadRequestPage('q: <script>alert("x")</script>', "//evil.example/x", "n");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
    expect(html).toContain('<a href="/">Open / without the parameters</a>');
  });

  it("lists every change kind, each linking to the page with it, when the kind was wrong", () => {
    const html = renderBadRequestPage('kind: unknown change kind "bogus"', "/vendors/acme/changes", "n");
    for (const kind of CHANGE_KIND_NAMES) expect(html).toContain(`href="/vendors/acme/changes?kind=${kind}"`);
    expect(renderBadRequestPage("page: pages start at 1", "/search", "n")).not.toContain("kind-choices");
  });
});
