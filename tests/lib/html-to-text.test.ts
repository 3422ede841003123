import { describe, expect, it } from "vitest";
import { htmlToText } from "@/lib/html-to-text";

describe("htmlToText", () => {
  it("keeps paragraphs, line breaks and list items as plain text", () => {
    expect(htmlToText("<p>One<br>two</p><ul><li>a</li><li>b</li></ul><p>End &amp; done</p>")).toBe("One\ntwo\n\n* a\n* b\n\nEnd & done");
  });

  it("drops scripts and styles entirely and never emits markup", () => {
    const out = htmlToText('<p>Hi<script>alert(1)</script><style>p{}</style><img src=x onerror="alert(2)"></p>');
    expect(out).toBe("Hi");
  });

  it("turns http links into Markdown links and drops javascript: links", () => {
    expect(htmlToText('<a href="https://example.com/x">details</a>')).toBe("[details](https://example.com/x)");
    expect(htmlToText('<a href="javascript:alert(1)">click</a>')).toBe("click");
  });
});
