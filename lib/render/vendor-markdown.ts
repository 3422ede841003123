import MarkdownIt from "markdown-it";

/** Past this, vendor text is cut: no status update is this long, and rendering stays bounded. */
export const VENDOR_MARKDOWN_MAX_CHARS = 200_000;

/** The level a vendor's highest heading gets in an update or a diff: below the page's h1-h3. */
const DEFAULT_TOP_LEVEL = 4;

// breaks: vendors (Google Cloud) end lines with a single newline and mean a line break.
const markdown = new MarkdownIt({ html: false, xhtmlOut: true, linkify: true, breaks: true, typographer: false });
markdown.linkify.set({ fuzzyLink: false, fuzzyEmail: false });
const SAFE_HREF = /^https?:\/\//i;
// An image would load from the vendor's (or anyone's) server: it becomes a link named by its alt text.
markdown.renderer.rules.image = (tokens, idx) => {
  const image = tokens[idx];
  const alt = markdown.utils.escapeHtml(image?.content || "image");
  const src = image?.attrGet("src") ?? "";
  return SAFE_HREF.test(src) ? `<a href="${markdown.utils.escapeHtml(src)}" rel="${LINK_REL}">${alt}</a>` : `<span>${alt}</span>`;
};

type Token = ReturnType<MarkdownIt["parse"]>[number];

const LINK_REL = "nofollow noopener noreferrer";
/**
 * Rendered vendor text kept by its source (least recently used out first, within a bound in
 * characters), so a page rendered again after a new version reuses the updates that did not change.
 */
const RENDERED = new Map<string, string>();
const RENDERED_MAX_CHARS = 16 * 1024 * 1024;
let renderedChars = 0;

/** The text parsed, cut at the bound; a heading's leading escaped "#"s (Google Cloud's "## \\# Summary") dropped. */
function parseVendorMarkdown(text: string): Token[] {
  const source = text.length > VENDOR_MARKDOWN_MAX_CHARS ? `${text.slice(0, VENDOR_MARKDOWN_MAX_CHARS)} […]` : text;
  const tokens = markdown.parse(source, {});
  tokens.forEach((token, i) => {
    const first = token.type === "inline" && tokens[i - 1]?.type === "heading_open" ? token.children?.[0] : undefined;
    if (first?.type === "text") first.content = first.content.replace(/^#+\s+/, "");
  });
  return tokens;
}

/** Vendor Markdown as HTML that can run nothing and load nothing, headings from h4 down. */
export function renderVendorMarkdown(text: string): string {
  return renderVendorMarkdownAt(text, DEFAULT_TOP_LEVEL);
}

/**
 * The same, with the vendor's highest heading at `topLevel` and the others keeping their
 * distance from it, so the page outline never skips a level and never meets an h1.
 */
export function renderVendorMarkdownAt(text: string, topLevel: 2 | 3 | 4 | 5): string {
  const key = `${topLevel}\u0000${text}`;
  const kept = RENDERED.get(key);
  if (kept !== undefined) {
    RENDERED.delete(key);
    RENDERED.set(key, kept);
    return kept;
  }
  const html = markdown.renderer.render(confine(parseVendorMarkdown(text), topLevel), markdown.options, {});
  RENDERED.set(key, html);
  renderedChars += key.length + html.length;
  for (const [oldKey, oldHtml] of RENDERED) {
    if (renderedChars <= RENDERED_MAX_CHARS) break;
    RENDERED.delete(oldKey);
    renderedChars -= oldKey.length + oldHtml.length;
  }
  return html;
}

/**
 * The tokens made safe before rendering. With raw HTML off, markdown-it writes only its own tags
 * and escapes every text and attribute; what is left is what it lets through: links and images
 * to any scheme it accepts (only http and https stay links, with rel), headings at the vendor's
 * levels (moved down to `topLevel`), and the attributes it adds (title, table alignment styles,
 * code classes, list starts), all dropped.
 */
function confine(tokens: Token[], topLevel: number): Token[] {
  const levels = tokens.filter((t) => t.type === "heading_open").map((t) => Number(t.tag.slice(1)));
  const highest = levels.length > 0 ? Math.min(...levels) : 1;
  for (const token of tokens) {
    if (token.type === "heading_open" || token.type === "heading_close") token.tag = `h${Math.min(6, Number(token.tag.slice(1)) - highest + topLevel)}`;
    else if (token.type === "fence") token.info = "";
    else if (token.type === "inline") confineLinks(token.children ?? []);
    else token.attrs = null;
  }
  return tokens;
}

function confineLinks(children: Token[]): void {
  const open: Token[] = [];
  for (const child of children) {
    if (child.type === "link_open") {
      const href = child.attrGet("href") ?? "";
      if (SAFE_HREF.test(href)) child.attrs = [["href", href], ["rel", LINK_REL]];
      else Object.assign(child, { tag: "span", attrs: null });
      open.push(child);
    } else if (child.type === "link_close") {
      child.tag = open.pop()?.tag ?? "a";
    }
  }
}

/**
 * Vendor Markdown as readable plain text for places that carry no HTML (feed titles, plain
 * exports): the syntax gone, paragraphs and list items on their own lines, table cells
 * separated by " | ", links as "label (address)".
 */
export function vendorMarkdownToText(text: string): string {
  // Blocks of one list or one table follow each other on the next line, others after a blank.
  const blocks: Array<{ text: string; group: number | null }> = [];
  let line = "";
  let groups = 0;
  let table: number | null = null;
  const lists: Array<{ ordered: boolean; next: number; group: number }> = [];
  const flush = (group: number | null) => {
    if (line.trim() !== "") blocks.push({ text: line.replace(/[ \t]+$/gm, ""), group });
    line = "";
  };
  for (const token of parseVendorMarkdown(text)) {
    const group = lists[0]?.group ?? table;
    switch (token.type) {
      case "bullet_list_open":
      case "ordered_list_open":
        flush(group);
        lists.push({ ordered: token.type === "ordered_list_open", next: Number(token.attrGet("start") ?? 1), group: group ?? ++groups });
        break;
      case "list_item_open": {
        flush(group);
        const list = lists[lists.length - 1];
        line = "  ".repeat(lists.length - 1) + (list?.ordered ? `${list.next++}. ` : "* ");
        break;
      }
      case "bullet_list_close":
      case "ordered_list_close":
        flush(group);
        lists.pop();
        break;
      case "table_open":
        table = ++groups;
        break;
      case "table_close":
        table = null;
        break;
      case "inline":
        line += inlineText(token.children ?? []);
        break;
      case "code_block":
      case "fence":
        flush(group);
        blocks.push({ text: token.content.replace(/\n$/, ""), group: null });
        break;
      case "th_open":
      case "td_open":
        if (line.trim() !== "") line += " | ";
        break;
      case "tr_close":
      case "paragraph_close":
      case "heading_close":
        flush(group);
        break;
    }
  }
  flush(null);
  return blocks
    .map((b, i) => (i === 0 ? b.text : `${b.group !== null && blocks[i - 1]?.group === b.group ? "\n" : "\n\n"}${b.text}`))
    .join("")
    .trim();
}

function inlineText(children: readonly Token[]): string {
  let out = "";
  const links: Array<{ href: string; start: number }> = [];
  for (const child of children) {
    if (child.type === "text" || child.type === "code_inline" || child.type === "image") out += child.content;
    else if (child.type === "softbreak" || child.type === "hardbreak") out += "\n";
    else if (child.type === "link_open") links.push({ href: child.attrGet("href") ?? "", start: out.length });
    else if (child.type === "link_close") {
      const link = links.pop();
      const label = link ? out.slice(link.start) : "";
      if (link && /^https?:\/\//i.test(link.href) && label !== link.href) out += ` (${link.href})`;
    }
  }
  return out;
}
