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
    for (const words of ["Service information", "In progress", "No impact", "Listed in the feed", "No longer in the feed"]) expect(html).toContain(words);
    for (const raw of ["service_information", "in_progress", "left-feed", "unknown"]) expect(html).not.toContain(raw);
  });
});

const at = "2026-03-01T10:00:00.000Z";
const edit = (before: string, after: string): Change => ({
  field: "update",
  kind: "changed",
  updateId: "u1",
  before: { id: "u1", status: "investigating", body: before, createdAt: at, displayAt: at },
  after: { id: "u1", status: "investigating", body: after, createdAt: at, displayAt: at },
});
const render = (changes: Change[]) => renderChangeHtml({ summary: "S", changes, link: "https://redline.test/x" });

describe("renderChangeHtml", () => {
  it("puts a lowered impact before an edited update, as the change page does", () => {
    const html = render([edit("a", "b"), { field: "impact", kind: "changed", before: "major", after: "minor" }]);
    expect(html.indexOf("<h3>Impact</h3>")).toBeGreaterThan(-1);
    expect(html.indexOf("<h3>Impact</h3>")).toBeLessThan(html.indexOf("<h3>Update ("));
  });

  it("says an update's status and time once, in its heading, and a side's own only where it differs", () => {
    const posted = render([{ field: "update", kind: "added", updateId: "u2", before: null, after: makeUpdate({ id: "u2", status: "monitoring", displayAt: at }) }]);
    expect(posted).toContain("<h3>Update (Monitoring, 2026-03-01 10:00:00 UTC)</h3>");
    expect(posted.split("Monitoring, 2026-03-01 10:00:00 UTC").length - 1).toBe(1);
    const relabelled = edit("Same words.", "Same words.");
    if (relabelled.field !== "update" || !relabelled.after) throw new Error("not an update change");
    const html = render([{ ...relabelled, after: { ...relabelled.after, status: "identified" } }]);
    expect(html).toContain("<h3>Update (Identified, 2026-03-01 10:00:00 UTC)</h3>");
    expect(html).toMatch(/<th scope="row">Before<\/th><td><p><small>Investigating, 2026-03-01 10:00:00 UTC<\/small><\/p>/);
    expect(html).toMatch(/<th scope="row">After<\/th><td><p>Same words\.<\/p>/);
  });

  it("shows an edited Google Cloud update once, without its Markdown syntax, words spaced apart", () => {
    const html = render([edit("**Summary**\n\nThe root cause was DNS.", "**Summary**\n\nThe root in was DNS.")]);
    expect(html).not.toMatch(/\*\*|<th scope="row">Before/);
    expect(html).toContain("<del>cause</del> <ins>in</ins>");
  });

  it("cuts a long edited text to its changed passage and counts the lines left out", () => {
    const body = (word: string) => Array.from({ length: 40 }, (_, i) => (i === 20 ? `Line ${i} ${word}.` : `Line ${i} stays.`)).join("\n\n");
    const html = render([edit(body("old"), body("new"))]);
    expect(html).toContain("… 18 unchanged lines …");
    expect(html).toContain("… 17 unchanged lines …");
    expect(html).not.toContain("Line 2 stays.");
  });

  it("shows a rewritten postmortem as its two versions whole, not as a wall of marks", () => {
    const html = render([{ field: "postmortem", kind: "changed", before: { body: "## Preliminary\n\nStill investigating the cause.", publishedAt: null }, after: { body: "## Final report\n\nA voltage drop tripped both breakers.", publishedAt: null } }]);
    expect(html).toMatch(/<th scope="row">Before<\/th><td>[\s\S]*Still investigating the cause\./);
    expect(html).toMatch(/<th scope="row">After<\/th><td>[\s\S]*A voltage drop tripped both breakers\./);
    expect(html).not.toMatch(/<del>|<ins>|Word changes/);
  });
});

describe("a postmortem posted as an update too (Google Cloud's incident report)", () => {
  it("is shown once, as the postmortem, saying it was posted as an update", () => {
    const report = "# Incident Report\n\nA bad configuration push (reportmarker).";
    const update = makeUpdate({ id: "u9", status: "available", body: report, createdAt: "2026-03-05T09:00:00.000Z", displayAt: "2026-03-05T09:00:00.000Z" });
    const html = render([
      { field: "update", kind: "added", updateId: "u9", before: null, after: update },
      { field: "postmortem", kind: "added", before: null, after: { body: report, publishedAt: "2026-03-05T09:00:00.000Z" } },
    ]);
    expect(html.split("reportmarker").length - 1).toBe(1);
    expect(html).toContain("<h3>Postmortem</h3><p><small>Posted as an update too (Available, 2026-03-05 09:00:00 UTC): the same text, shown once, here.</small></p>");
    expect(html).not.toContain("<h3>Update (");
  });
});
