import { describe, expect, it } from "vitest";
import { toPlainWords } from "@/lib/plain-words";

describe("toPlainWords", () => {
  it("removes tags, and scripts and styles with what they hold, keeping the words", () => {
    expect(toPlainWords("<script>alert(1)</script>Outage <img src=x onerror=alert(1)>")).toBe("Outage");
    expect(toPlainWords('Evil <b>Co</b><style>p{}</style> <svg onload="alert(1)"><title>t</title></svg>ltd')).toBe("Evil Co ltd");
    expect(toPlainWords("<p>Degraded <i>API</i></p><p>Recovered</p>")).toBe("Degraded API\n\nRecovered");
  });

  it("keeps a link's label and drops its script or data address", () => {
    expect(toPlainWords('See <a href="javascript:alert(1)">x</a> now')).toBe("See x now");
    expect(toPlainWords("click javascript:alert(1) or JavaScript:void(0) or vbscript:msgbox")).toBe("click or or");
    expect(toPlainWords("open data:text/html;base64,PHNjcmlwdD4= here")).toBe("open here");
  });

  it("decodes entities, and removes tags that were escaped once or twice", () => {
    expect(toPlainWords("AT&amp;T &lt;script&gt;alert(1)&lt;/script&gt;down")).toBe("AT&T down");
    expect(toPlainWords("&amp;lt;img src=x onerror=alert(1)&amp;gt;Down")).toBe("Down");
    expect(toPlainWords("&amp;amp;amp;lt;b&amp;amp;amp;gt;deep")).not.toMatch(/<[a-z/!?]/i);
    expect(toPlainWords("jav&#x61;script&#x3a;alert(1) after")).toBe("after");
  });

  it("leaves plain text alone: ampersands, comparisons, line breaks, a data: heading", () => {
    for (const text of ["Tom & Jerry", "Latency < 200 ms and > 50 ms", "p99 <5s", "Upgrade\nEND:VEVENT\nUID:forged", "Loss of data: none", "Redline: Acme, maintenance", "  * nested item"]) {
      expect(toPlainWords(text)).toBe(text.trim());
    }
    expect(toPlainWords("")).toBe("");
  });
});
