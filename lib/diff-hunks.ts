import { type DiffPiece, diffText, spaceSegments } from "@/lib/word-diff";

/**
 * A long edited text as a code review shows it: the changed lines with a few unchanged ones
 * around each, and a count of the unchanged lines left out between. Line breaks are the
 * text's own; blank lines neither count as context nor as lines left out.
 */
export interface DiffLine {
  pieces: DiffPiece[];
  changed: boolean;
}
export type DiffHunk = { kind: "lines"; lines: DiffLine[] } | { kind: "skipped"; count: number };

export interface HunkOptions {
  /** Unchanged non-blank lines kept on each side of a change. */
  context?: number;
  /** Texts with at most this many non-blank lines are shown whole. */
  wholeUpTo?: number;
}

/** An unchanged run longer than this, inside one line, keeps only its ends around an ellipsis. */
const LONG_RUN = 320;
const RUN_END = 120;

const isBlank = (line: DiffLine) => line.pieces.every((p) => p.text.trim() === "");

/** Pieces cut at the text's line breaks; a line is changed when a deletion or insertion touches it. */
export function splitDiffLines(pieces: readonly DiffPiece[]): DiffLine[] {
  const lines: DiffLine[] = [{ pieces: [], changed: false }];
  for (const piece of pieces) {
    const marked = piece.kind === "removed" || piece.kind === "added";
    piece.text.split("\n").forEach((part, i) => {
      if (i > 0) lines.push({ pieces: [], changed: false });
      const line = lines[lines.length - 1];
      if (!line) return;
      if (marked) line.changed = true;
      if (part !== "") line.pieces.push({ ...piece, text: part } as DiffPiece);
    });
  }
  return lines;
}

/** What a changed line holds, for the colour of its margin: only inserted words, only removed ones, or both. */
export function lineChangeOf(line: DiffLine): "added" | "removed" | "edited" | null {
  if (!line.changed) return null;
  const added = line.pieces.some((p) => p.kind === "added" && p.text.trim() !== "");
  const removed = line.pieces.some((p) => p.kind === "removed" && p.text.trim() !== "");
  if (added === removed) return "edited";
  return added ? "added" : "removed";
}

function shorten(text: string, keepHead: boolean, keepTail: boolean): string {
  if (text.length <= LONG_RUN) return text;
  const head = keepHead ? text.slice(0, RUN_END).replace(/\S*$/, "") : "";
  const tail = keepTail ? text.slice(-RUN_END).replace(/^\S*/, "") : "";
  return `${head}…${tail}`;
}

/** Long unchanged runs within a line cut to the words next to the change (or the line's ends). */
function trimLine(line: DiffLine): DiffLine {
  const last = line.pieces.length - 1;
  const pieces = line.pieces.map((p, i) => {
    if (p.kind !== "same") return p;
    const text = last === 0 ? shorten(p.text, true, true) : shorten(p.text, i > 0, i < last);
    return { ...p, text };
  });
  return { ...line, pieces };
}

/** The lines to keep: every changed line and `context` non-blank lines either side of it. */
function keptLines(lines: readonly DiffLine[], context: number): boolean[] {
  const keep = lines.map((l) => l.changed);
  lines.forEach((line, c) => {
    if (!line.changed) return;
    for (const step of [-1, 1]) {
      let seen = 0;
      for (let i = c + step; i >= 0 && i < lines.length && seen < context; i += step) {
        const l = lines[i];
        if (!l) break;
        keep[i] = true;
        if (!isBlank(l)) seen += 1;
      }
    }
  });
  return keep;
}

function trimTrailingBlanks(lines: DiffLine[]): void {
  for (let last = lines.at(-1); last && isBlank(last); last = lines.at(-1)) lines.pop();
}

/** `before` → `after` as hunks of word-marked lines, with the unchanged stretches between counted. */
export function diffHunks(before: string, after: string, options: HunkOptions = {}): DiffHunk[] {
  const context = options.context ?? 2;
  const lines = splitDiffLines(spaceSegments(diffText(before, after)));
  const nonBlank = lines.filter((l) => !isBlank(l)).length;
  if (nonBlank <= (options.wholeUpTo ?? 8) || !lines.some((l) => l.changed)) return [{ kind: "lines", lines: lines.map(trimLine) }];
  const keep = keptLines(lines, context);
  const hunks: DiffHunk[] = [];
  let skipped = 0;
  let current: DiffLine[] | null = null;
  lines.forEach((line, i) => {
    if (isBlank(line)) {
      if (current !== null) current.push(line);
      return;
    }
    if (!keep[i]) {
      skipped += 1;
      current = null;
      return;
    }
    if (skipped > 0) hunks.push({ kind: "skipped", count: skipped });
    skipped = 0;
    if (current === null) hunks.push({ kind: "lines", lines: (current = []) });
    current.push(trimLine(line));
  });
  if (skipped > 0) hunks.push({ kind: "skipped", count: skipped });
  for (const hunk of hunks) if (hunk.kind === "lines") trimTrailingBlanks(hunk.lines);
  return hunks;
}

/** The start of a text that is shown in place of the whole, and how much of it was left out. */
export interface TextOpening {
  lines: string[];
  /** Non-blank lines left out, the one cut short included. */
  left: number;
}

export interface OpeningOptions {
  /** Non-blank lines kept at most. */
  lines?: number;
  /** Characters kept at most; the line that passes it is cut at a word. */
  chars?: number;
}

/**
 * The opening lines of a long text, for a rewrite too different to mark word by word: a reader
 * sees how each version starts, and opens the whole text when they want it.
 */
export function openingOf(text: string, options: OpeningOptions = {}): TextOpening {
  const maxLines = options.lines ?? 6;
  const maxChars = options.chars ?? 600;
  const all = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const lines: string[] = [];
  let used = 0;
  let cutShort = false;
  for (const line of all) {
    if (lines.length === maxLines) break;
    if (used + line.length > maxChars) {
      const room = maxChars - used;
      const cut = line.slice(0, room).replace(/\s+\S*$/, "");
      if (room >= 40 && cut !== "") {
        lines.push(`${cut} …`);
        cutShort = true;
      }
      break;
    }
    lines.push(line);
    used += line.length;
  }
  return { lines, left: all.length - lines.length + (cutShort ? 1 : 0) };
}

/** Whether a text is long enough that a page shows its opening (or its changed passages) first. */
export function isLongText(text: string, options: OpeningOptions = {}): boolean {
  return openingOf(text, options).left > 0;
}
