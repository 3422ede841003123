import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

/**
 * Vendor Markdown (postmortems) as HTML that can run nothing and load nothing: markdown-it with
 * raw HTML off renders it, sanitize-html then keeps only text structure and http(s) links, which
 * get rel="nofollow noopener" and no images at all.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const ALLOWED_TAGS = [
  "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "code", "pre", "blockquote",
  "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
];

/**
 * `topLevel` is the level the vendor's highest heading gets, just below the page's own; the
 * others keep their distance from it, so the page outline never skips a level.
 */
export function renderVendorMarkdown(text: string, topLevel: 2 | 3 | 4 = 2): string {
  const source = text.slice(0, 200_000);
  const tokens = markdown.parse(source, {});
  const levels = tokens.filter((t) => t.type === "heading_open").map((t) => Number(t.tag.slice(1)));
  const highest = levels.length > 0 ? Math.min(...levels) : 1;
  const html = markdown.renderer.render(tokens, markdown.options, {});
  const demote = (level: number) => `h${Math.min(6, level - highest + topLevel)}`;
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ["href", "rel"], th: ["align"], td: ["align"] },
    allowedSchemes: ["http", "https"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    // A vendor's headings sit below the page's own, keeping the outline in order.
    transformTags: {
      h1: demote(1),
      h2: demote(2),
      h3: demote(3),
      h4: demote(4),
      h5: demote(5),
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: "nofollow noopener noreferrer" } }),
    },
  });
}
