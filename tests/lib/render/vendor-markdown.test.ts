import fs from "node:fs";
import sanitizeHtml from "sanitize-html";
import { describe, expect, it } from "vitest";
import { VENDOR_MARKDOWN_MAX_CHARS, renderVendorMarkdown, renderVendorMarkdownAt, vendorMarkdownToText } from "@/lib/render/vendor-markdown";
import { corpusSnapshots, describeCorpus } from "@/tests/support/corpus";

/** Every update text of the Google Cloud snapshots, newest capture first. */
function gcpUpdateTexts(): string[] {
  const texts: string[] = [];
  for (const file of corpusSnapshots("gcp-incidents").reverse()) {
    const raw = fs.readFileSync(file, "utf8");
    if (raw.trim() === "") continue;
    for (const incident of JSON.parse(raw) as Array<{ updates?: Array<{ text?: string }> }>) {
      for (const update of incident.updates ?? []) if (update.text) texts.push(update.text);
    }
    if (texts.length > 0) return texts;
  }
  return texts;
}

const HOSTILE = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(2)>",
  "![pixel](https://tracker.example/p.png)",
  "![inline](data:image/png;base64,AAAA)",
  "[click](javascript:alert(3))",
  "[vb](vbscript:msgbox(1)) [mail](mailto:a@example.com) [rel](//evil.example/x)",
  "<iframe src=https://evil.example></iframe>",
  '<a href="https://ok.example" onclick="alert(4)">x</a>',
  "<style>body{display:none}</style>",
  "<!-- comment --><div style=\"position:fixed\">over</div>",
].join("\n\n");

/**
 * What an allowlist sanitizer would leave of vendor HTML: the renderer's output must already be
 * that. Quotes in text are compared as characters (markdown-it writes them as &quot;, the sanitizer plainly).
 */
function sanitized(html: string): string {
  return unquoted(sanitizeHtml(html, {
    allowedTags: ["p", "br", "hr", "h2", "h3", "h4", "h5", "h6", "strong", "em", "s", "code", "pre", "blockquote", "ul", "ol", "li", "a", "span", "table", "thead", "tbody", "tr", "th", "td"],
    allowedAttributes: { a: ["href", "rel"] },
    allowedSchemes: ["http", "https"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
  }));
}

function unquoted(html: string): string {
  return html.replaceAll("&quot;", '"');
}

describe("renderVendorMarkdown", () => {
  it("writes only what an allowlist sanitizer would keep, for hostile and ordinary input alike", () => {
    const inputs = [HOSTILE, "# Title\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n\n3. three\n4. four\n\n```js\nx()\n```\n\n[t](https://a.example \"title\") <https://b.example>"];
    for (const input of inputs) {
      const html = renderVendorMarkdownAt(input, 2);
      expect(sanitized(html)).toBe(unquoted(html));
    }
  });

  it("renders emphasis, lists, code, line breaks and tables", () => {
    const html = renderVendorMarkdown("**Summary**\nMitigated.\n\n* one\n* _two_\n\n`code`\n\n| A | B |\n| :--- | :--- |\n| 1 | 2 |");
    expect(html).toContain("<strong>Summary</strong><br />\nMitigated.");
    expect(html).toMatch(/<ul>\s*<li>one<\/li>\s*<li><em>two<\/em><\/li>\s*<\/ul>/);
    expect(html).toContain("<code>code</code>");
    expect(html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th>A<\/th>\s*<th>B<\/th>/);
    expect(html).toMatch(/<td>1<\/td>\s*<td>2<\/td>/);
    expect(html).not.toContain(":---");
  });

  it("demotes the vendor's headings below the page's, keeping their distance", () => {
    expect(renderVendorMarkdown("# Impact\n## Cause")).toMatch(/<h4>Impact<\/h4>\s*<h5>Cause<\/h5>/);
    expect(renderVendorMarkdown("## Impact\n#### Cause\n###### Detail")).toMatch(/<h4>Impact<\/h4>\s*<h6>Cause<\/h6>\s*<h6>Detail<\/h6>/);
    expect(renderVendorMarkdownAt("### Impact\n#### Cause", 2)).toMatch(/<h2>Impact<\/h2>\s*<h3>Cause<\/h3>/);
    expect(renderVendorMarkdownAt("# Top", 2)).not.toContain("<h1");
  });

  it("lets no script, handler, style, frame, image or non-http link through", () => {
    const html = renderVendorMarkdown(HOSTILE);
    expect(html).not.toMatch(/<(script|img|iframe|style|div)\b/i);
    expect(html).not.toMatch(/<[^>]*\s(on\w+|style|src)\s*=/i);
    expect(html).not.toMatch(/<a\s[^>]*href="(?!https?:\/\/)/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain('<a href="https://tracker.example/p.png" rel="nofollow noopener noreferrer">pixel</a>');
    expect(html).toContain("<span>mail</span>");
  });

  it("marks every vendor link nofollow noopener and links bare http addresses only", () => {
    const html = renderVendorMarkdown("see https://status.example.com/x or status.example.org");
    expect(html).toContain('<a href="https://status.example.com/x" rel="nofollow noopener noreferrer">');
    expect(html).not.toContain('href="http://status.example.org');
  });

  it("cuts a huge input at the bound, says so, and caps nesting", () => {
    const html = renderVendorMarkdown(`${"word ".repeat(VENDOR_MARKDOWN_MAX_CHARS / 5)}TAIL-NOT-SHOWN`);
    expect(html).not.toContain("TAIL-NOT-SHOWN");
    expect(html).toContain("[…]");
    expect(html.length).toBeLessThan(VENDOR_MARKDOWN_MAX_CHARS + 100);
    const nested = renderVendorMarkdown(`${"> ".repeat(5_000)}deep`);
    expect(nested.match(/<blockquote>/g)?.length ?? 0).toBeLessThanOrEqual(100);
  });
});

describe("vendorMarkdownToText", () => {
  it("removes the syntax and keeps lines, list items, table rows and link addresses", () => {
    const text = vendorMarkdownToText(
      "## \\#\\# Summary\n**Mitigated** as of _10:22_.\nSee [the report](https://status.example.com/r).\n\n* one\n* two\n\n| Time | Event |\n| :--- | :--- |\n| 16:24 | Fault |",
    );
    expect(text).toBe(
      "Summary\n\nMitigated as of 10:22.\nSee the report (https://status.example.com/r).\n\n* one\n* two\n\nTime | Event\n16:24 | Fault",
    );
  });

  it("keeps hostile text as inert words and drops non-http addresses", () => {
    const text = vendorMarkdownToText(HOSTILE);
    expect(text).toContain("<script>alert(1)</script>");
    expect(text).toContain("pixel");
    expect(text).not.toContain("(mailto:");
    expect(text).toContain("mail");
  });
});

describeCorpus("vendor Markdown in Google Cloud's real updates", () => {
  it("renders every update as HTML an allowlist sanitizer leaves unchanged", () => {
    for (const text of gcpUpdateTexts()) {
      const html = renderVendorMarkdown(text);
      expect(sanitized(html)).toBe(unquoted(html));
    }
  });

  it("renders every update's bold labels, headings and tables as markup, never as raw syntax", () => {
    const marked = gcpUpdateTexts().filter((t) => /\*\*\w|^#{1,6} |\| :-{3,}/m.test(t));
    expect(marked.length).toBeGreaterThan(0);
    for (const text of marked) {
      const html = renderVendorMarkdown(text);
      expect(html).not.toMatch(/\*\*\w[^*\n]*\*\*/);
      expect(html).not.toMatch(/\| :-{3,}/);
      expect(html).not.toMatch(/<h[1-3]\b|<h[4-6]>#/);
      if (/\| :-{3,}/.test(text)) expect(html).toContain("<table>");
      if (/^\*\*Summary\*\*/m.test(text)) expect(html).toContain("<strong>Summary</strong>");
    }
  });

  it("turns every update into plain text without Markdown syntax", () => {
    for (const text of gcpUpdateTexts()) {
      const plain = vendorMarkdownToText(text);
      expect(plain).not.toMatch(/\*\*\w|^#{2,6} |\| :-{3,}/m);
      expect(plain.length).toBeGreaterThan(0);
    }
  });
});
