import MarkdownIt from "markdown-it";
import sanitizeHtml from "sanitize-html";

/**
 * Vendor Markdown (postmortems) as HTML that can run nothing and load nothing: markdown-it with
 * raw HTML off renders it, sanitize-html then keeps only text structure and http(s) links, which
 * get rel="nofollow noopener" and no images at all.
 */
const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const ALLOWED_TAGS = [
  "p", "br", "hr", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "code", "pre", "blockquote",
  "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td",
];

export function renderVendorMarkdown(text: string): string {
  const html = markdown.render(text.slice(0, 200_000));
  return sanitizeHtml(html, {
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: { a: ["href", "rel"], th: ["align"], td: ["align"] },
    allowedSchemes: ["http", "https"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    // A vendor's top-level heading would compete with the page's own h1.
    transformTags: {
      h1: "h2",
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: "nofollow noopener noreferrer" } }),
    },
  });
}
