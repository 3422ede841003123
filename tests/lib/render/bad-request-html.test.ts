import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BAD_REQUEST_CSS, renderBadRequestPage } from "@/lib/render/bad-request-html";

const GLOBALS = fs.readFileSync(path.join(__dirname, "..", "..", "..", "app", "globals.css"), "utf8");
const DARK = "@media (prefers-color-scheme: dark)";

/** `--name: value` pairs of the first `:root {` block at or after `from`. */
function tokens(css: string, from: number): Map<string, string> {
  const start = css.indexOf(":root {", from);
  const block = css.slice(start, css.indexOf("}", start));
  return new Map([...block.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name = "", value = ""]) => [name, value.trim()]));
}

describe("the 400 page", () => {
  it.each([["light", 0, 0], ["dark", BAD_REQUEST_CSS.indexOf(DARK), GLOBALS.indexOf(DARK)]] as const)(
    "uses the site's own colour tokens in the %s scheme",
    (_scheme, ownAt, siteAt) => {
      const own = tokens(BAD_REQUEST_CSS, ownAt);
      const site = tokens(GLOBALS, siteAt);
      expect(own.size).toBeGreaterThan(5);
      expect([...own].filter(([name, value]) => site.get(name) !== value)).toEqual([]);
    },
  );

  it("is in the site's frame: skip link, the main navigation, a main landmark and the footer", () => {
    const html = renderBadRequestPage("kind: unknown", "/", "n0nce");
    expect(html).toContain('<a class="skip-link" href="#main">Skip to content</a>');
    expect(html).toMatch(/<nav aria-label="Main">.*href="\/vendors">Vendors<\/a>.*href="\/search">Search<\/a>/);
    expect(html).toContain('<main id="main" tabindex="-1">');
    expect(html).toContain('<footer class="site-footer">');
  });

  it("escapes the reason and the path, and links an address that is not a path on this site back to the home page", () => {
    const html = renderBadRequestPage('q: <script>alert("x")</script>', "//evil.example/", "n0nce");
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;");
    expect(html).toContain('<a href="/">Open / without it</a>');
    const sneaky = renderBadRequestPage("x", "javascript:alert(1)", "n0nce");
    expect(sneaky).toContain('<a href="/">Open / without it</a>');
  });
});
