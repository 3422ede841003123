import { DomUtils, parseDocument } from "htmlparser2";

type DomNode = ReturnType<typeof parseDocument>["children"][number];
type DomElement = Extract<DomNode, { attribs: Record<string, string> }>;

const DROPPED = new Set([
  "script", "style", "noscript", "template", "iframe", "object", "embed", "head", "title", "svg",
  "form", "input", "button", "select", "textarea", "canvas", "video", "audio",
]);
const BLOCKS = new Set([
  "p", "div", "section", "article", "header", "footer", "main", "aside", "nav", "figure", "figcaption",
  "dl", "dt", "dd", "address", "details", "summary",
]);
const STRUCTURES = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "blockquote", "hr", "table"]);
const EMPHASIS: Record<string, string> = { strong: "**", b: "**", em: "*", i: "*" };

function isElement(node: DomNode): node is DomElement {
  return DomUtils.isTag(node);
}

function isBlock(node: DomNode): boolean {
  return isElement(node) && (BLOCKS.has(node.name) || STRUCTURES.has(node.name) || node.name === "li");
}

/** Markdown punctuation in vendor text stays literal; `<` is escaped so no markup survives a renderer. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, "\\$&");
}

function escapeLineStarts(markdown: string): string {
  return markdown.replace(/^(\s*)([#>+-])(?=\s|$)/gm, "$1\\$2").replace(/^(\s*\d+)([.)])(?=\s|$)/gm, "$1\\$2");
}

function wrapEmphasis(inner: string, mark: string): string {
  const trimmed = inner.trim();
  if (trimmed === "") return inner;
  const lead = inner.slice(0, inner.length - inner.trimStart().length);
  const trail = inner.slice(inner.trimEnd().length);
  return `${lead}${mark}${trimmed}${mark}${trail}`;
}

function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text.replace(/\s+/g, " ")}${pad}${fence}`;
}

function linkTarget(href: string | undefined): string | null {
  const url = href?.trim() ?? "";
  return /^https?:\/\/[^\s]+$/i.test(url) ? url.replace(/[()]/g, (c) => (c === "(" ? "%28" : "%29")) : null;
}

function renderInline(nodes: readonly DomNode[]): string {
  return nodes.map(renderInlineNode).join("");
}

function renderInlineNode(node: DomNode): string {
  if (DomUtils.isText(node)) return escapeText(node.data.replace(/\s+/g, " "));
  if (!isElement(node) || DROPPED.has(node.name)) return "";
  const mark = EMPHASIS[node.name];
  if (mark) return wrapEmphasis(renderInline(node.children), mark);
  if (node.name === "br") return "\n";
  if (node.name === "code" || node.name === "kbd" || node.name === "samp") return inlineCode(DomUtils.textContent(node));
  if (node.name === "img") return escapeText(node.attribs.alt ?? "");
  const inner = renderInline(node.children);
  if (node.name === "a") {
    const href = linkTarget(node.attribs.href);
    const label = inner.trim();
    return href && label !== "" ? `[${label}](${href})` : inner;
  }
  return isBlock(node) ? ` ${inner} ` : inner;
}

function renderParagraph(nodes: readonly DomNode[]): string {
  return escapeLineStarts(
    renderInline(nodes)
      .split("\n")
      .map((line) => line.replace(/ {2,}/g, " ").trim())
      .join("\n")
      .trim(),
  );
}

function fencedCode(node: DomElement): string {
  const codeChild = node.children.find((c) => isElement(c) && c.name === "code");
  const language = codeChild && isElement(codeChild) ? (/\blanguage-([\w+#-]+)/.exec(codeChild.attribs.class ?? "")?.[1] ?? "") : "";
  const text = DomUtils.textContent(node).replace(/\n$/, "");
  const longest = Math.max(2, ...(text.match(/`{3,}/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function indentAfterFirst(text: string, width: number): string {
  return text.replace(/\n(?!\n)/g, `\n${" ".repeat(width)}`);
}

function renderList(node: DomElement): string {
  const ordered = node.name === "ol";
  let number = Number.parseInt(node.attribs.start ?? "1", 10) || 1;
  const items = node.children.filter((c): c is DomElement => isElement(c) && c.name === "li");
  return items
    .map((item) => {
      const marker = ordered ? `${number++}. ` : "- ";
      const body = renderBlocks(item.children);
      return marker + indentAfterFirst(body, marker.length);
    })
    .join("\n");
}

function renderTable(node: DomElement): string {
  const rows = DomUtils.findAll((e) => e.name === "tr", node.children).map((row) =>
    row.children.filter((c): c is DomElement => isElement(c) && (c.name === "td" || c.name === "th")),
  );
  const lines = rows
    .filter((cells) => cells.length > 0)
    .map((cells) => `| ${cells.map((cell) => renderParagraph(cell.children).replace(/\n/g, " ").replace(/\|/g, "\\|")).join(" | ")} |`);
  const width = rows[0]?.length ?? 0;
  if (lines.length > 0) lines.splice(1, 0, `|${" --- |".repeat(width)}`);
  return lines.join("\n");
}

function renderStructure(node: DomElement): string {
  const level = /^h([1-6])$/.exec(node.name)?.[1];
  if (level) return `${"#".repeat(Number(level))} ${renderParagraph(node.children).replace(/\n/g, " ")}`;
  if (node.name === "ul" || node.name === "ol") return renderList(node);
  if (node.name === "pre") return fencedCode(node);
  if (node.name === "hr") return "---";
  if (node.name === "table") return renderTable(node);
  return renderBlocks(node.children)
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

function renderBlocks(nodes: readonly DomNode[]): string {
  const blocks: string[] = [];
  let inline: DomNode[] = [];
  const flush = () => {
    const paragraph = renderParagraph(inline);
    if (paragraph !== "") blocks.push(paragraph);
    inline = [];
  };
  for (const node of nodes) {
    if (isElement(node) && DROPPED.has(node.name)) continue;
    if (!isBlock(node) || !isElement(node)) {
      inline.push(node);
      continue;
    }
    flush();
    const rendered = STRUCTURES.has(node.name) ? renderStructure(node) : renderBlocks(node.children);
    if (rendered.trim() !== "") blocks.push(rendered);
  }
  flush();
  return blocks.join("\n\n");
}

/**
 * Vendor HTML (a postmortem body) as Markdown: headings, paragraphs, lists, emphasis, inline code,
 * code blocks, tables and http(s) links. Scripts, styles, frames and every other tag are dropped.
 */
export function htmlToMarkdown(html: string): string {
  return renderBlocks(parseDocument(html).children).replace(/\n{3,}/g, "\n\n").trim();
}
