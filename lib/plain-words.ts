import { Parser } from "htmlparser2";

/** Elements whose content is never words: gone with their tags. */
const DROPPED_TAGS = new Set(["script", "style", "noscript", "template", "iframe", "object", "head", "title", "textarea", "svg", "math"]);
const BREAK_TAGS = new Set([
  "br", "p", "div", "section", "article", "header", "footer", "blockquote", "pre", "table", "tr", "li",
  "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "dl", "dt", "dd", "hr",
]);
/** A script or data address as a reader would linkify it; "data:" followed by a space is a word. */
const UNSAFE_ADDRESS = /\b(?:javascript|vbscript):\S*|\bdata:(?=\S)\S*/gi;
/** What an HTML reader opens a tag, comment or declaration with. */
const TAG_START = /<[a-zA-Z/!?]/;
// Each pass decodes one level of entities ("&amp;lt;b&amp;gt;" takes two); past this, "<" goes.
const MAX_PASSES = 3;

/** One pass: the tags and what dropped elements hold removed, entities decoded, breaks kept. */
function stripTags(text: string): string {
  let out = "";
  let dropDepth = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (DROPPED_TAGS.has(name)) dropDepth += 1;
        else if (dropDepth === 0 && BREAK_TAGS.has(name)) out += "\n";
      },
      ontext(chunk) {
        if (dropDepth === 0) out += chunk;
      },
      onclosetag(name) {
        if (DROPPED_TAGS.has(name)) dropDepth = Math.max(0, dropDepth - 1);
        else if (dropDepth === 0 && BREAK_TAGS.has(name) && name !== "br") out += "\n";
      },
    },
    { decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return out;
}

/**
 * Vendor text for a field a reader may render as HTML though it is plain text by its format (an
 * RSS or Atom title, a JSON Feed title, an iCalendar property): tags removed with what scripts and
 * styles hold, entities decoded, script and data addresses dropped, so escaping it once is enough.
 * Words, line breaks and a "<" that opens no tag ("latency < 200 ms") stay.
 */
export function toPlainWords(text: string): string {
  let words = text;
  for (let pass = 0; pass < MAX_PASSES && (TAG_START.test(words) || words.includes("&")); pass += 1) {
    const stripped = stripTags(words);
    if (stripped === words) break;
    words = stripped;
  }
  if (TAG_START.test(words)) words = words.replace(/<(?=[a-zA-Z/!?])/g, "");
  return words
    .replace(UNSAFE_ADDRESS, "")
    .replace(/(?<=\S)[ \t]{2,}/g, " ")
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
