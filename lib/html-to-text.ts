import { Parser } from "htmlparser2";

const BLOCK_TAGS = new Set([
  "p", "div", "section", "article", "header", "footer", "blockquote", "pre", "table", "tr",
  "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "dt", "dd", "hr",
]);
const DROPPED_TAGS = new Set(["script", "style", "noscript", "template", "iframe", "object", "head", "title"]);

/**
 * Vendor HTML (update bodies, feed entries) as plain text: paragraphs and line breaks kept,
 * list items as "* ", http(s) links as Markdown links. Nothing of the markup survives.
 */
export function htmlToText(html: string): string {
  let out = "";
  let dropDepth = 0;
  const links: Array<{ href: string | null; start: number }> = [];
  const newline = (count: number) => {
    const trailing = /\n*$/.exec(out)?.[0].length ?? 0;
    if (out.length > 0 && trailing < count) out += "\n".repeat(count - trailing);
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (DROPPED_TAGS.has(name)) {
          dropDepth += 1;
          return;
        }
        if (dropDepth > 0) return;
        if (name === "br") out += "\n";
        else if (name === "li") {
          newline(1);
          out += "* ";
        } else if (BLOCK_TAGS.has(name)) newline(2);
        else if (name === "td" || name === "th") out += out.endsWith("\n") || out === "" ? "" : " | ";
        if (name === "a") {
          const href = attrs.href ?? "";
          links.push({ href: /^https?:\/\//i.test(href) ? href : null, start: out.length });
        }
      },
      ontext(text) {
        if (dropDepth > 0) return;
        out += text.replace(/[ \t\r\n\f]+/g, " ");
      },
      onclosetag(name) {
        if (DROPPED_TAGS.has(name)) {
          dropDepth = Math.max(0, dropDepth - 1);
          return;
        }
        if (dropDepth > 0) return;
        if (name === "a") {
          const link = links.pop();
          if (link?.href) {
            const label = out.slice(link.start).trim();
            if (label !== "" && label !== link.href) {
              out = `${out.slice(0, link.start)}[${label}](${link.href})`;
            }
          }
        } else if (name === "li") newline(1);
        else if (BLOCK_TAGS.has(name)) newline(2);
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return out
    .split("\n")
    .map((line) => line.replace(/^ +| +$/g, "").replace(/ {2,}/g, " "))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
