import { describe, expect, it } from "vitest";
import { type DiffHunk, type DiffLine, diffHunks, isLongText, openingOf, splitDiffLines } from "@/lib/diff-hunks";
import { diffText, spaceSegments } from "@/lib/word-diff";

const paragraphs = (n: number, edit?: { at: number; text: string }) =>
  Array.from({ length: n }, (_, i) => (edit && edit.at === i ? edit.text : `Paragraph ${i + 1} says nothing new.`)).join("\n\n");

const text = (line: DiffLine) => line.pieces.map((p) => p.text).join("");
const outline = (hunks: readonly DiffHunk[]) =>
  hunks.map((h) => (h.kind === "skipped" ? `… ${h.count} …` : h.lines.filter((l) => text(l) !== "").map(text)));

describe("diffHunks", () => {
  it("shows a long text as the changed passage with two lines of context and counts what it leaves out", () => {
    const before = paragraphs(30);
    const after = paragraphs(30, { at: 14, text: "Paragraph 15 names the real cause." });
    const hunks = diffHunks(before, after);
    expect(outline(hunks)).toEqual([
      "… 12 …",
      ["Paragraph 13 says nothing new.", "Paragraph 14 says nothing new.", "Paragraph 15 says nothing new names the real cause.", "Paragraph 16 says nothing new.", "Paragraph 17 says nothing new."],
      "… 13 …",
    ]);
    const changed = hunks.flatMap((h) => (h.kind === "lines" ? h.lines.filter((l) => l.changed) : []));
    expect(changed).toHaveLength(1);
    expect(changed[0]?.pieces.filter((p) => p.kind === "removed").map((p) => p.text)).toEqual(["says nothing new"]);
  });

  it("joins changes whose context overlaps into one hunk", () => {
    const before = paragraphs(20);
    const after = paragraphs(20).replace("Paragraph 8 says", "Paragraph 8 now says").replace("Paragraph 11 says", "Paragraph 11 now says");
    const hunks = diffHunks(before, after);
    expect(hunks.map((h) => h.kind)).toEqual(["skipped", "lines", "skipped"]);
    expect(hunks[0]).toEqual({ kind: "skipped", count: 5 });
    expect(hunks[2]).toEqual({ kind: "skipped", count: 7 });
  });

  it("shows a short text whole", () => {
    const hunks = diffHunks("One.\n\nTwo.\n\nThree.", "One.\n\nTwo, edited.\n\nThree.");
    expect(hunks).toHaveLength(1);
    const lines = hunks[0]?.kind === "lines" ? hunks[0].lines.filter((l) => text(l) !== "") : [];
    expect(lines.map((l) => [text(l).slice(0, 3), l.changed])).toEqual([["One", false], ["Two", true], ["Thr", false]]);
  });

  it("cuts a long unchanged run inside a changed line down to the words beside the change", () => {
    const filler = Array.from({ length: 120 }, (_, i) => `word${i}`).join(" ");
    const hunks = diffHunks(`${filler} old ending.`, `${filler} new ending.`);
    const line = hunks[0]?.kind === "lines" ? hunks[0].lines[0] : undefined;
    expect(line && text(line).length).toBeLessThan(200);
    expect(line && text(line)).toMatch(/^… word1\d\d .* old new ending\.$/);
  });
});

describe("splitDiffLines", () => {
  it("marks as changed every line a deletion or insertion touches, and only those", () => {
    const lines = splitDiffLines(spaceSegments(diffText("a\nb\nc", "a\nB\nc")));
    expect(lines.map((l) => [text(l), l.changed])).toEqual([["a", false], ["b B", true], ["c", false]]);
  });
});

describe("openingOf", () => {
  it("keeps a long text's first lines and counts the non-blank lines it leaves out", () => {
    const opening = openingOf(paragraphs(30), { lines: 3 });
    expect(opening).toEqual({ lines: ["Paragraph 1 says nothing new.", "Paragraph 2 says nothing new.", "Paragraph 3 says nothing new."], left: 27 });
    expect(isLongText(paragraphs(30))).toBe(true);
  });

  it("cuts the line that passes the character budget at a word and counts it as left out", () => {
    const long = `${"word ".repeat(200).trim()}`;
    const opening = openingOf(`Heading\n${long}\nLast line`, { chars: 100 });
    expect(opening.lines[0]).toBe("Heading");
    expect(opening.lines[1]).toMatch(/^word( word)* …$/);
    expect((opening.lines[1] ?? "").length).toBeLessThanOrEqual(100);
    expect(opening.left).toBe(2);
  });

  it("shows a short text whole, with nothing left out", () => {
    expect(openingOf("One.\n\nTwo.")).toEqual({ lines: ["One.", "Two."], left: 0 });
    expect(isLongText("One.\n\nTwo.")).toBe(false);
  });
});
