import { describe, expect, it } from "vitest";
import { renderVendorMarkdown } from "@/lib/render/postmortem-html";

describe("renderVendorMarkdown", () => {
  it("renders headings, lists, emphasis and code", () => {
    const html = renderVendorMarkdown("# Impact\n\n* one\n* **two**\n\n`code`");
    expect(html).toContain("<h2>Impact</h2>");
    expect(renderVendorMarkdown("# Impact\n## Cause", 4)).toMatch(/<h4>Impact<\/h4>\s*<h5>Cause<\/h5>/);
    expect(renderVendorMarkdown("## Root cause\n### Detail", 3)).toMatch(/<h3>Root cause<\/h3>\s*<h4>Detail<\/h4>/);
    expect(html).toContain("<li><strong>two</strong></li>");
    expect(html).toContain("<code>code</code>");
  });

  it("lets no script, handler, image, frame or javascript: link through", () => {
    const hostile = [
      "<script>alert(1)</script>",
      "<img src=x onerror=alert(2)>",
      "![pixel](https://tracker.example/p.png)",
      "[click](javascript:alert(3))",
      "<iframe src=https://evil.example></iframe>",
      "<a href=\"https://ok.example\" onclick=\"alert(4)\">x</a>",
      "<style>body{display:none}</style>",
    ].join("\n\n");
    const html = renderVendorMarkdown(hostile);
    expect(html).not.toMatch(/<(script|img|iframe|style)/i);
    expect(html).not.toMatch(/<[^>]*\son\w+\s*=/i);
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain("&lt;script&gt;");
  });

  it("marks vendor links nofollow noopener", () => {
    expect(renderVendorMarkdown("see https://status.example.com/x")).toContain('rel="nofollow noopener noreferrer"');
  });
});
