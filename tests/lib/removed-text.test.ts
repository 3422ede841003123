import { describe, expect, it } from "vitest";
import { passagesOf, removedText } from "@/lib/removed-text";

const text = (title: string, updates: string[], postmortem: string | null = null) => ({ title, updates: updates.map((body) => ({ body })), postmortem: postmortem === null ? null : { body: postmortem } });

describe("the text a version took away", () => {
  it("is each passage of the earlier text that the new one no longer has", () => {
    expect(removedText(text("DNS outage", ["Investigating.", "Caused by a bad config push."]), text("DNS outage", ["Investigating.", "Caused by a provider."]))).toBe("Caused by a bad config push.");
  });

  it("is empty when only text was added or nothing changed", () => {
    expect(removedText(text("A", ["one"]), text("A", ["one", "two"]))).toBe("");
    expect(removedText(text("A", ["one"]), text("A", ["one"]))).toBe("");
  });

  it("keeps only the rewritten paragraphs of a postmortem, and an old title", () => {
    const before = text("Data loss", [], "Summary\n\nA disk failed and data was lost.\n\nWe are sorry.");
    const after = text("Storage degradation", [], "Summary\n\nA disk was slow.\n\nWe are sorry.");
    expect(removedText(before, after)).toBe("Data loss\n\nA disk failed and data was lost.");
  });

  it("counts a passage moved to another update as kept, and one said twice once", () => {
    expect(removedText(text("A", ["x", "y"]), text("A", ["y", "x"]))).toBe("");
    expect(removedText(text("A", ["gone", "gone"]), text("A", []))).toBe("gone");
    expect(passagesOf(text("  ", ["", " b "]))).toEqual(["b"]);
  });
});
