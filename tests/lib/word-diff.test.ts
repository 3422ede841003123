import { describe, expect, it } from "vitest";
import { diffText, formatWordDiffPlain } from "@/lib/word-diff";

describe("diffText", () => {
  it("marks only the words that changed", () => {
    const segments = diffText("We are investigating the issue.", "We are monitoring the issue.");
    expect(segments.filter((s) => s.kind !== "same").map((s) => [s.kind, s.text.trim()])).toEqual([
      ["removed", "investigating"],
      ["added", "monitoring"],
    ]);
    expect(formatWordDiffPlain(segments)).toBe("We are [-investigating-]{+monitoring+} the issue.");
  });

  it("rebuilds both texts from its segments", () => {
    const before = "All affected users should be able to search.";
    const after = "The majority of affected users should be able to search again.";
    const segments = diffText(before, after);
    expect(segments.filter((s) => s.kind !== "added").map((s) => s.text).join("")).toBe(before);
    expect(segments.filter((s) => s.kind !== "removed").map((s) => s.text).join("")).toBe(after);
  });

  it("gives up on pathological inputs quickly, as a whole replacement", () => {
    const words = (seed: number) => Array.from({ length: 40_000 }, (_, i) => `w${(i * seed) % 7919}`).join(" ");
    const segments = diffText(words(31), words(37));
    expect(segments.filter((s) => s.kind !== "added").map((s) => s.text).join("")).toBe(words(31));
    expect(segments.filter((s) => s.kind !== "removed").map((s) => s.text).join("")).toBe(words(37));
  });
});

describe("diffText on rewritten sentences", () => {
  it("shows a rewritten sentence as one removal and one addition, and still rebuilds both texts", () => {
    const before = "We are investigating failed webhook deliveries.";
    const after = "Some webhook deliveries were delayed.";
    const segments = diffText(before, after);
    expect(segments.filter((s) => s.kind !== "added").map((s) => s.text).join("")).toBe(before);
    expect(segments.filter((s) => s.kind !== "removed").map((s) => s.text).join("")).toBe(after);
    expect(segments.filter((s) => s.kind === "removed").length).toBeLessThanOrEqual(2);
  });

  it("keeps whitespace between removals that have no addition", () => {
    const segments = diffText("keep a b keep", "keep keep");
    expect(segments.filter((s) => s.kind !== "added").map((s) => s.text).join("")).toBe("keep a b keep");
    expect(segments.filter((s) => s.kind !== "removed").map((s) => s.text).join("")).toBe("keep keep");
  });
});
