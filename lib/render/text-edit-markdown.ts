import { type DiffHunk, type DiffLine, diffHunks } from "@/lib/diff-hunks";
import { excerpt } from "@/lib/format";
import { escapeMarkdownInline, fenceMarkdownBlock } from "@/lib/render/markdown-text";
import { vendorMarkdownToText } from "@/lib/render/vendor-markdown";
import { diffText, isRewrite } from "@/lib/word-diff";

/**
 * An edited vendor text in a Markdown document, for a person rather than a diff tool: a short text
 * as Before and After with its changed words quoted, a long one as its changed passages (a
 * unified diff with context, as a code review shows it) and the whole new text, a rewrite as
 * its two versions. Vendor text stays inside fences or escaped quotes, never markup.
 */

/** At most this many quoted edits; the Before / After above them hold the rest. */
const MAX_QUOTED = 10;
const QUOTE_LENGTH = 160;

function quote(text: string): string {
  return `“${escapeMarkdownInline(excerpt(text, QUOTE_LENGTH))}”`;
}

/** Words of unchanged text kept on each side of a quoted edit, so "15 and" reads as "22:10 to 22:15 and 22:33". */
const CONTEXT_WORDS = 3;

function tailWords(text: string): string {
  const line = text.slice(text.lastIndexOf("\n") + 1);
  return line.match(new RegExp(`(?:\\S+\\s+){0,${CONTEXT_WORDS}}\\S*$`))?.[0] ?? "";
}

function headWords(text: string): string {
  const newline = text.indexOf("\n");
  const line = newline === -1 ? text : text.slice(0, newline);
  return line.match(new RegExp(`^\\S*(?:\\s+\\S+){0,${CONTEXT_WORDS}}`))?.[0] ?? "";
}

/** Each run of removed and added words, quoted with a few unchanged words around it: `“old” became “new”`. */
export function quoteChangedWords(before: string, after: string): string[] {
  const segments = diffText(before, after);
  const edits: string[] = [];
  for (let i = 0; i < segments.length; i += 1) {
    const s = segments[i];
    if (!s || s.kind === "same") continue;
    const paired = s.kind === "removed" && segments[i + 1]?.kind === "added" ? segments[i + 1] : undefined;
    const removed = s.kind === "removed" ? s.text : "";
    const added = paired ? paired.text : s.kind === "added" ? s.text : "";
    const previous = segments[i - 1];
    if (paired) i += 1;
    const next = segments[i + 1];
    const tail = previous?.kind === "same" ? tailWords(previous.text) : "";
    const head = next?.kind === "same" ? headWords(next.text) : "";
    const [old, now] = [`${tail}${removed}${head}`.trim(), `${tail}${added}${head}`.trim()];
    if (old === now) continue;
    if (!old) edits.push(`${quote(now)} added`);
    else if (!now) edits.push(`${quote(old)} removed`);
    else edits.push(`${quote(old)} became ${quote(now)}`);
  }
  if (edits.length === 0) return ["Only spacing or line breaks changed.", ""];
  // Numbered, so a list of changed values after it starts a list of its own (CommonMark joins two "-" lists).
  const shown = edits.slice(0, MAX_QUOTED).map((e, i) => `${i + 1}. ${e}`);
  const more = edits.length > MAX_QUOTED ? [`And ${edits.length - MAX_QUOTED} more changes.`, ""] : [];
  return ["What changed in it:", "", ...shown, "", ...more];
}

function side(line: DiffLine, kind: "removed" | "added"): string | null {
  if (!line.pieces.some((p) => p.kind === "same" || p.kind === kind)) return null;
  return line.pieces.filter((p) => p.kind === "same" || p.kind === kind).map((p) => p.text).join("");
}

/** One hunk as unified-diff lines: context with two spaces, a changed run's old lines with "- ", then its new with "+ ". */
function hunkLines(hunk: DiffHunk): string[] {
  if (hunk.kind === "skipped") return [`… ${hunk.count} unchanged ${hunk.count === 1 ? "line" : "lines"} …`];
  const out: string[] = [];
  let run: DiffLine[] = [];
  const flush = () => {
    for (const kind of ["removed", "added"] as const) {
      for (const line of run) {
        const text = side(line, kind);
        if (text !== null) out.push(`${kind === "removed" ? "-" : "+"} ${text}`);
      }
    }
    run = [];
  };
  for (const line of hunk.lines) {
    if (line.changed) run.push(line);
    else {
      flush();
      const text = line.pieces.map((p) => p.text).join("");
      out.push(text === "" ? "" : `  ${text}`);
    }
  }
  flush();
  return out;
}

/** Before and After of an edited text, as Markdown lines; text only added (`extended`) is never called rewritten. */
export function renderTextEditMarkdown(before: string, after: string, options: { extended?: boolean } = {}): string[] {
  if (!options.extended && isRewrite(vendorMarkdownToText(before), vendorMarkdownToText(after))) {
    return ["Rewritten: too little of the text was kept to quote the changes.", "", "Before:", "", fenceMarkdownBlock(before), "", "After:", "", fenceMarkdownBlock(after), ""];
  }
  const hunks = diffHunks(before, after);
  const skipped = hunks.reduce((n, h) => n + (h.kind === "skipped" ? h.count : 0), 0);
  if (skipped === 0) {
    return ["Before:", "", fenceMarkdownBlock(before), "", "After:", "", fenceMarkdownBlock(after), "", ...quoteChangedWords(before, after)];
  }
  return [
    `The changed passages (${skipped} unchanged ${skipped === 1 ? "line" : "lines"} left out; "-" before, "+" after):`,
    "",
    fenceMarkdownBlock(hunks.flatMap(hunkLines).join("\n"), "diff"),
    "",
    "The whole text after the edit:",
    "",
    fenceMarkdownBlock(after),
    "",
  ];
}
