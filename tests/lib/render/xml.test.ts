import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import { xmlElement } from "@/lib/render/xml";

/** The text and attributes of a one-element document, as a strict XML parser reads them. */
function parse(xml: string): { text: string; attributes: Record<string, string> } {
  const parser = new SaxesParser();
  let text = "";
  let attributes: Record<string, string> = {};
  parser.on("error", (e) => {
    throw e;
  });
  parser.on("opentag", (tag) => (attributes = Object.fromEntries(Object.entries(tag.attributes).map(([name, value]) => [name, String(value)]))));
  parser.on("text", (t) => (text += t));
  parser.write(xml).close();
  return { text, attributes };
}

describe("XML elements", () => {
  it("parse back as the very text and attribute values they were given, markup, quotes and line ends included", () => {
    const text = `<b>&amp;</b> ]]> ]]><x/> "q" 'a'\r\nnext\tline`;
    const value = `a "b" <c> & d\nline\ttab\r`;
    expect(parse(xmlElement("title", { label: value }, text))).toEqual({ text, attributes: { label: value } });
  });

  it("hold U+FFFD where XML 1.0 cannot hold a character, so the document stays well-formed", () => {
    expect(parse(xmlElement("title", {}, "a\u0001b\u0000c\uFFFEd\uD800e")).text).toBe("a\uFFFDb\uFFFDc\uFFFDd\uFFFDe");
    expect(parse(xmlElement("title", {}, "emoji \u{1F525} stays")).text).toBe("emoji \u{1F525} stays");
  });
});
