import { describe, expect, it } from "vitest";
import type { Change } from "@/lib/change";
import { renderChangeHtml } from "@/lib/render/change-html";

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
