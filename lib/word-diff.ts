import { diffLines, diffWordsWithSpace } from "diff";

export interface TextSegment {
  kind: "same" | "added" | "removed";
  text: string;
}

/** Vendor texts can be long; past this the edit is shown as a whole replacement. */
const WORD_DIFF_TIMEOUT_MS = 100;

/** Word-level segments of one changed stretch; one that takes too long is a whole replacement. */
function diffWords(before: string, after: string): TextSegment[] {
  const parts = diffWordsWithSpace(before, after, { timeout: WORD_DIFF_TIMEOUT_MS });
  if (!parts) {
    return [
      ...(before ? [{ kind: "removed" as const, text: before }] : []),
      ...(after ? [{ kind: "added" as const, text: after }] : []),
    ];
  }
  return parts.map((p) => ({ kind: p.added ? "added" : p.removed ? "removed" : "same", text: p.value }));
}

/** A block of changed lines against its replacement: line by line when they pair up, else as a whole. */
function diffBlock(removed: string, added: string): TextSegment[] {
  const before = removed.split(/(?<=\n)/);
  const after = added.split(/(?<=\n)/);
  if (before.length !== after.length) return diffWords(removed, added);
  return before.flatMap((line, i) => diffWords(line, after[i] ?? ""));
}

/**
 * Word-level segments turning `before` into `after`, for highlighting an edit. As a code review
 * does, lines are matched first (cheap) and words compared only within the lines that changed,
 * so a long text with a few edits costs little and never times out into a false "all new".
 */
export function diffText(before: string, after: string): TextSegment[] {
  const lines = diffLines(before, after);
  const segments: TextSegment[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const part = lines[i];
    if (!part) continue;
    if (!part.added && !part.removed) {
      segments.push({ kind: "same", text: part.value });
      continue;
    }
    const next = lines[i + 1];
    if (part.removed && next?.added) {
      segments.push(...diffBlock(part.value, next.value));
      i += 1;
    } else segments.push({ kind: part.added ? "added" : "removed", text: part.value });
  }
  return coalesce(segments);
}

/**
 * Join runs of changes separated only by whitespace into one removal and one addition, so a
 * rewritten sentence reads as [-old sentence-]{+new sentence+}, not word against word.
 */
function coalesce(segments: readonly TextSegment[]): TextSegment[] {
  const out: TextSegment[] = [];
  let i = 0;
  while (i < segments.length) {
    const first = segments[i];
    if (!first || first.kind === "same") {
      if (first) out.push(first);
      i += 1;
      continue;
    }
    let end = i;
    for (let j = i + 1; j < segments.length; j += 1) {
      const s = segments[j];
      if (!s) break;
      if (s.kind !== "same") end = j;
      else if (!/^\s+$/.test(s.text) || segments[j + 1]?.kind === "same" || j + 1 >= segments.length) break;
    }
    const run = segments.slice(i, end + 1);
    const hasRemoved = run.some((s) => s.kind === "removed");
    const hasAdded = run.some((s) => s.kind === "added");
    if (hasRemoved && hasAdded) {
      out.push({ kind: "removed", text: run.filter((s) => s.kind !== "added").map((s) => s.text).join("") });
      out.push({ kind: "added", text: run.filter((s) => s.kind !== "removed").map((s) => s.text).join("") });
    } else out.push(...run);
    i = end + 1;
  }
  return out;
}

/** Below this share of its words kept, an edited text is a rewrite: marks would only paint it red, then green. */
const REWRITE_BELOW = 0.35;

/** The share of the longer text left unchanged by the edit, 0 to 1. */
export function keptShare(segments: readonly TextSegment[]): number {
  const length = (kind: TextSegment["kind"]) => segments.filter((s) => s.kind === kind || s.kind === "same").reduce((n, s) => n + s.text.replace(/\s+/g, "").length, 0);
  const longer = Math.max(length("removed"), length("added"));
  const kept = segments.filter((s) => s.kind === "same").reduce((n, s) => n + s.text.replace(/\s+/g, "").length, 0);
  return longer === 0 ? 1 : kept / longer;
}

/** Whether `after` rewrites `before` rather than edits it: shown side by side whole, not marked. */
export function isRewrite(before: string, after: string): boolean {
  return keptShare(diffText(before, after)) < REWRITE_BELOW;
}

/** What a diff shows: the segments, plus a space that belongs to neither text where one is needed. */
export type DiffPiece = TextSegment | { kind: "gap"; text: " " };

const touches = (a: TextSegment, b: TextSegment) =>
  ((a.kind === "removed" && b.kind === "added") || (a.kind === "added" && b.kind === "removed")) && !/\s$/.test(a.text) && !/^\s/.test(b.text);

/**
 * Segments for display: a deletion and an insertion that touch get a space between them, so a
 * rendering with the marks gone still reads "cause in", never "causein".
 */
export function spaceSegments(segments: readonly TextSegment[]): DiffPiece[] {
  const out: DiffPiece[] = [];
  segments.forEach((s, i) => {
    const previous = segments[i - 1];
    if (previous && touches(previous, s)) out.push({ kind: "gap", text: " " });
    out.push(s);
  });
  return out;
}

/** Segments as plain text in `git diff --word-diff=plain` notation: [-removed-]{+added+}. */
export function formatWordDiffPlain(segments: readonly TextSegment[]): string {
  return segments
    .map((s) => (s.kind === "same" ? s.text : s.kind === "removed" ? `[-${s.text}-]` : `{+${s.text}+}`))
    .join("");
}
