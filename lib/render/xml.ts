/** Everything XML 1.0 cannot hold even escaped (§2.2): control characters, lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
// A parser turns a raw CR into LF, and a tab or newline in an attribute into a space.
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#xD;", '"': "&quot;", "\n": "&#xA;", "\t": "&#x9;" };

/**
 * Text as XML character data (or, with quotes, an attribute value in double quotes): it parses back
 * as the same text, but for U+FFFD where XML cannot hold a character.
 */
export function escapeXml(text: string, quotes = false): string {
  return text.replace(NOT_XML, "\uFFFD").replace(quotes ? /[&<>\r"\n\t]/g : /[&<>\r]/g, (c) => ESCAPES[c] ?? c);
}

/** One element, its text and attribute values escaped; an empty element when there is no text. */
export function xmlElement(name: string, attributes: Readonly<Record<string, string>>, text?: string): string {
  const attrs = Object.entries(attributes).map(([key, value]) => ` ${key}="${escapeXml(value, true)}"`).join("");
  return text === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${escapeXml(text)}</${name}>`;
}
