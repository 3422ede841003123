import { describe, expect, it } from "vitest";
import { type DiffPiece, diffText, formatWordDiffPlain, isRewrite, keptShare, spaceSegments } from "@/lib/word-diff";

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

/** What a reader sees with the marks taken away: every piece's text, in order. */
const shown = (pieces: readonly DiffPiece[]) => pieces.map((p) => p.text).join("");

describe("spaceSegments", () => {
  it("puts a space between a deleted and an inserted word that touch, so they never run together", () => {
    const pieces = spaceSegments(diffText("the root cause was DNS", "the root in was DNS"));
    expect(shown(pieces)).toBe("the root cause in was DNS");
    expect(shown(pieces)).not.toContain("causein");
    expect(pieces.map((p) => p.kind)).toEqual(["same", "removed", "gap", "added", "same"]);
  });

  it("spaces a rewritten phrase from its replacement the same way", () => {
    const pieces = spaceSegments(diffText("We identified the cause and fixed it.", "We identified an issue in the load balancer."));
    expect(shown(pieces)).toBe("We identified the cause and fixed it an issue in the load balancer.");
  });

  it("adds nothing where whitespace already separates the two", () => {
    const segments = [
      { kind: "removed" as const, text: "cause " },
      { kind: "added" as const, text: "in" },
      { kind: "same" as const, text: " " },
      { kind: "removed" as const, text: "x" },
      { kind: "added" as const, text: " y" },
    ];
    expect(spaceSegments(segments).some((p) => p.kind === "gap")).toBe(false);
  });

  it("leaves both texts rebuildable from the pieces that are not gaps", () => {
    const before = "Root cause: a bad deploy.";
    const after = "Root cause: a config push.";
    const pieces = spaceSegments(diffText(before, after));
    expect(pieces.filter((p) => p.kind === "same" || p.kind === "removed").map((p) => p.text).join("")).toBe(before);
    expect(pieces.filter((p) => p.kind === "same" || p.kind === "added").map((p) => p.text).join("")).toBe(after);
  });
});

describe("isRewrite", () => {
  it("calls a text a rewrite when little of it is kept, and an edit when most of it is", () => {
    const preliminary = "Preliminary report. We are still investigating the cause and will post a full report later.";
    const final = "Incident report. A voltage drop in the utility feed tripped both breakers; the backup power failed over late.";
    expect(isRewrite(preliminary, final)).toBe(true);
    expect(isRewrite("We are investigating elevated error rates on the REST API.", "We are investigating slightly elevated error rates for a few customers.")).toBe(false);
  });

  it("measures the share kept against the longer of the two texts", () => {
    expect(keptShare(diffText("a b c d", "a b c d"))).toBe(1);
    expect(keptShare(diffText("", "new text"))).toBe(0);
    expect(keptShare(diffText("keep", "keep plus three more"))).toBeCloseTo(4 / 17, 5);
  });
});
