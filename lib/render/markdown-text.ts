/** Vendor text inside Markdown: never markup, whatever it contains. */

/**
 * One line of vendor text, with every character CommonMark could read as emphasis, code, a link,
 * an image, a table cell or raw HTML backslash-escaped. Line-start syntax cannot occur: callers
 * always put a label before it.
 */
export function escapeMarkdownInline(text: string): string {
  return text.replace(/\s+/g, " ").trim().replace(/[\\`*_[\]<>|&~!]/g, (c) => `\\${c}`);
}

/** A fenced block longer than any backtick run in the text, so the text cannot close it. */
export function fenceMarkdownBlock(text: string, info: "text" | "diff" = "text"): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text}\n${fence}`;
}
