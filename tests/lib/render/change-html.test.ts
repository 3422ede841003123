import { describe, expect, it } from "vitest";
import type { Change } from "@/lib/change";
import { renderChangeHtml } from "@/lib/render/change-html";
import { makeUpdate } from "@/tests/support/incidents";

const link = "https://redline.example/vendors/google-cloud/incidents/x/versions/2";

describe("renderChangeHtml", () => {
  it("renders a posted update's Markdown in the feed item: bold labels, headings below the field's, tables", () => {
    const body = "**Summary**\nMitigated.\n## Timeline\n| Time | Event |\n| :---- | :---- |\n| 16:24 | Fault |";
    const html = renderChangeHtml({ summary: "New update.", changes: [{ field: "update", kind: "added", updateId: "u1", before: null, after: makeUpdate({ body }) }], link });
    expect(html).toContain("<strong>Summary</strong><br />");
    expect(html).toContain("<h4>Timeline</h4>");
    expect(html).toMatch(/<td>16:24<\/td>\s*<td>Fault<\/td>/);
    expect(html).not.toContain("**Summary**");
    expect(html).not.toContain(":----");
  });

  it("keeps a hostile update inert: its markup is text, its javascript: link no link", () => {
    const body = '<script>alert(1)</script> [x](javascript:alert(2)) <a href="https://ok.example" onclick="alert(3)">y</a>';
    const html = renderChangeHtml({ summary: "<b>s</b>", changes: [{ field: "update", kind: "added", updateId: "u1", before: null, after: makeUpdate({ body }) }], link });
    expect(html).not.toMatch(/<script|<b>|<[a-z]+\s[^>]*\son\w+=|<a\s[^>]*href="javascript:/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });
});

describe("a change as feed HTML", () => {
  it("says statuses, impacts and presence in words, never as stored values", () => {
    const changes: Change[] = [
      { field: "status", kind: "changed", before: "service_information", after: "in_progress" },
      { field: "impact", kind: "changed", before: null, after: "none" },
      { field: "presence", kind: "changed", before: "listed", after: "left-feed" },
    ];
    const html = renderChangeHtml({ summary: "Status changed.", changes, link: "https://redline.test/x" });
    for (const words of ["Information", "In progress", "No impact", "Listed in the feed", "No longer in the feed"]) expect(html).toContain(words);
    for (const raw of ["service_information", "in_progress", "left-feed", "unknown"]) expect(html).not.toContain(raw);
  });
});
