import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "@/lib/html-to-markdown";

describe("htmlToMarkdown", () => {
  it("writes headings as # and keeps paragraphs apart", () => {
    expect(htmlToMarkdown("<h2>Summary</h2><p>One.</p><p>Two &amp; three.</p>")).toBe("## Summary\n\nOne.\n\nTwo & three.");
  });

  it("writes emphasis and inline code, fencing code that contains backticks", () => {
    expect(htmlToMarkdown("<p><strong>Bold</strong>, <em>it</em> and <code>a`b</code></p>")).toBe("**Bold**, *it* and ``a`b``");
    expect(htmlToMarkdown("<p>a<b> </b>b</p>")).toBe("a b");
  });

  it("writes nested and numbered lists with their start number", () => {
    expect(htmlToMarkdown("<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>")).toBe("- a\n\n  - b\n- c");
    expect(htmlToMarkdown('<ol start="3"><li>three</li><li>four</li></ol>')).toBe("3. three\n4. four");
  });

  it("fences code blocks with their language and keeps their text verbatim", () => {
    expect(htmlToMarkdown('<pre><code class="language-sql">SELECT *\n  FROM t WHERE a &lt; 3;\n</code></pre>')).toBe(
      "```sql\nSELECT *\n  FROM t WHERE a < 3;\n```",
    );
  });

  it("keeps http(s) links and drops the target of any other", () => {
    expect(htmlToMarkdown('<p><a href="https://x.test/a (b)">doc</a> <a href="javascript:alert(1)">js</a> <a href="/rel">rel</a></p>')).toBe(
      "doc js rel",
    );
    expect(htmlToMarkdown('<p><a href="https://x.test/a(b)">doc</a></p>')).toBe("[doc](https://x.test/a%28b%29)");
  });

  it("drops scripts, styles and iframes with their content", () => {
    const html = "<p>Hi<script>alert(1)</script><style>p{}</style><iframe src='https://evil.test'>x</iframe></p><noscript>n</noscript>";
    expect(htmlToMarkdown(html)).toBe("Hi");
  });

  it("lets no markup survive: angle brackets in text are escaped, unknown tags unwrapped", () => {
    const out = htmlToMarkdown('<p>&lt;img src=x onerror=alert(1)&gt; <span onclick="x()">ok</span> <img src="x.png" alt="chart"></p>');
    expect(out).toBe("\\<img src=x onerror=alert(1)\\> ok chart");
    expect(out).not.toMatch(/(?<!\\)</);
  });

  it("escapes text that would otherwise read as Markdown structure", () => {
    expect(htmlToMarkdown("<p># not a heading<br>- not a list<br>1. not numbered<br>*not em*</p>")).toBe(
      "\\# not a heading\n\\- not a list\n1\\. not numbered\n\\*not em\\*",
    );
  });

  it("writes blockquotes, rules and tables", () => {
    expect(htmlToMarkdown("<blockquote><p>quoted</p><p>twice</p></blockquote><hr>")).toBe("> quoted\n>\n> twice\n\n---");
    expect(htmlToMarkdown("<table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2|3</td></tr></table>")).toBe(
      "| A | B |\n| --- | --- |\n| 1 | 2\\|3 |",
    );
  });

  it("returns an empty string for markup without text", () => {
    expect(htmlToMarkdown("<div><script>x</script></div>")).toBe("");
  });
});
