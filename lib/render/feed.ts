import { createHash } from "node:crypto";
import { toPlainWords } from "@/lib/plain-words";
import { escapeHtml } from "@/lib/render/change-html";
import { escapeXml, xmlElement } from "@/lib/render/xml";

export const FEED_FORMATS = ["atom", "rss", "json"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export const FEED_CONTENT_TYPES: Record<FeedFormat, string> = {
  atom: "application/atom+xml; charset=utf-8",
  rss: "application/rss+xml; charset=utf-8",
  json: "application/feed+json; charset=utf-8",
};

export interface FeedItem {
  id: string;
  /** Plain text, as are the summary and the feed's title and description. */
  title: string;
  link: string;
  summary: string;
  /** Sanitized HTML. */
  html: string;
  published: string;
  /** When the entry last changed (a quiet degradation's end); its publication when absent. */
  updated?: string;
}

/** An RFC 6721 deleted entry: the id of an entry a reader should drop, and why. */
export interface FeedTombstone {
  ref: string;
  when: string;
  /** The Redline page of what was deleted. */
  link: string;
  comment: string;
}

export interface FeedDocument {
  id: string;
  title: string;
  description: string;
  /** The web page this feed follows. */
  link: string;
  /** This feed in each format, absolute. */
  self: Record<FeedFormat, string>;
  updated: string;
  items: readonly FeedItem[];
  /** Atom only: RSS and JSON Feed have no standard for them. */
  tombstones?: readonly FeedTombstone[];
  /** The WebSub hub readers may subscribe at. */
  hub?: string;
}

/**
 * A name-based UUID (RFC 9562 version 8, from SHA-256) as a URN: the same words always give the
 * same id, whatever address the archive is served from, so an item's id never changes once
 * published and a reader never shows a change twice.
 */
export function stableUrn(...parts: readonly string[]): string {
  const bytes = createHash("sha256").update(parts.join("\u0000")).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The id of the item announcing one version of one incident. */
export function changeItemId(vendorSlug: string, providerId: string, observedAt: string): string {
  return stableUrn("redline-change", vendorSlug, providerId, observedAt);
}

/** The id of the item of one quiet degradation: its vendor and start, which a rebuild keeps and its end does not change. */
export function quietDegradationItemId(vendorSlug: string, from: string): string {
  return stableUrn("redline-quiet-degradation", vendorSlug, from);
}

// Written here rather than with the feed library: it types Atom item titles as HTML, keeps text in
// CDATA that a second "]]>" ends early, and reads "&amp;" in a text as "&".
const GENERATOR = "Redline";
const TOMBSTONES_NS = "http://purl.org/atompub/tombstones/1.0";
const RIGHTS = "Incident texts belong to their vendors; Redline's summaries are machine-written.";

/** Parsed, so a space or a non-ASCII letter in a path is percent-encoded. */
const href = (url: string) => new URL(url).href;
const iso = (date: string) => new Date(date).toISOString();
const indented = (indent: string, elements: readonly string[]) => elements.map((e) => `${indent}${e}`).join("\n");

/** Atom 1.0 (RFC 4287). Titles and summaries are typed text, never HTML. */
function renderAtom(doc: FeedDocument): string {
  const entries = doc.items.map((item) =>
    [
      "  <entry>",
      indented("    ", [
        xmlElement("title", { type: "text" }, item.title),
        xmlElement("id", {}, item.id),
        xmlElement("link", { href: href(item.link) }),
        xmlElement("updated", {}, iso(item.updated ?? item.published)),
        ...(item.summary ? [xmlElement("summary", { type: "text" }, item.summary)] : []),
        ...(item.html ? [xmlElement("content", { type: "html" }, item.html)] : []),
        xmlElement("published", {}, iso(item.published)),
      ]),
      "  </entry>",
    ].join("\n"),
  );
  const tombstones = (doc.tombstones ?? []).map((t) =>
    [
      `  <at:deleted-entry ref="${escapeXml(t.ref, true)}" when="${iso(t.when)}">`,
      indented("    ", [xmlElement("link", { rel: "alternate", href: href(t.link) }), xmlElement("at:comment", { "xml:lang": "en" }, t.comment)]),
      "  </at:deleted-entry>",
    ].join("\n"),
  );
  const head = indented("  ", [
    xmlElement("id", {}, doc.id),
    xmlElement("title", { type: "text" }, doc.title),
    xmlElement("updated", {}, iso(doc.updated)),
    xmlElement("generator", {}, GENERATOR),
    xmlElement("link", { rel: "alternate", href: href(doc.link) }),
    xmlElement("link", { rel: "self", href: href(doc.self.atom) }),
    ...(doc.hub ? [xmlElement("link", { rel: "hub", href: href(doc.hub) })] : []),
    xmlElement("subtitle", { type: "text" }, doc.description),
    xmlElement("rights", { type: "text" }, RIGHTS),
  ]);
  const namespaces = tombstones.length > 0 ? ` xmlns:at="${TOMBSTONES_NS}"` : "";
  return ['<?xml version="1.0" encoding="utf-8"?>', `<feed xmlns="http://www.w3.org/2005/Atom"${namespaces}>`, head, ...entries, ...tombstones, "</feed>", ""].join("\n");
}

/** RSS 2.0, with the item HTML in content:encoded. Every text is escaped, none in CDATA, so no text can end a section early. */
function renderRss(doc: FeedDocument): string {
  const items = doc.items.map((item) =>
    [
      "    <item>",
      indented("      ", [
        xmlElement("title", {}, item.title),
        xmlElement("link", {}, href(item.link)),
        xmlElement("guid", { isPermaLink: "false" }, item.id),
        xmlElement("pubDate", {}, new Date(item.published).toUTCString()),
        // Readers take an item's description as HTML; the summary is text.
        ...(item.summary ? [xmlElement("description", {}, escapeHtml(item.summary))] : []),
        ...(item.html ? [xmlElement("content:encoded", {}, item.html)] : []),
      ]),
      "    </item>",
    ].join("\n"),
  );
  const channel = indented("    ", [
    xmlElement("title", {}, doc.title),
    xmlElement("link", {}, href(doc.link)),
    xmlElement("description", {}, doc.description),
    xmlElement("lastBuildDate", {}, new Date(doc.updated).toUTCString()),
    xmlElement("docs", {}, "https://www.rssboard.org/rss-specification"),
    xmlElement("generator", {}, GENERATOR),
    xmlElement("language", {}, "en"),
    xmlElement("copyright", {}, RIGHTS),
    xmlElement("atom:link", { href: href(doc.self.rss), rel: "self", type: "application/rss+xml" }),
    ...(doc.hub ? [xmlElement("atom:link", { href: href(doc.hub), rel: "hub" })] : []),
  ]);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">',
    "  <channel>",
    channel,
    ...items,
    "  </channel>",
    "</rss>",
    "",
  ].join("\n");
}

/** JSON Feed 1.1, whose title and summary are plain text by definition. */
function renderJsonFeed(doc: FeedDocument): string {
  const feed = {
    version: "https://jsonfeed.org/version/1.1",
    title: doc.title,
    home_page_url: doc.link,
    feed_url: doc.self.json,
    description: doc.description,
    language: "en",
    ...(doc.hub ? { hubs: [{ type: "WebSub", url: doc.hub }] } : {}),
    items: doc.items.map((item) => ({
      id: item.id,
      url: item.link,
      title: item.title,
      content_html: item.html,
      ...(item.summary ? { summary: item.summary } : {}),
      date_published: iso(item.published),
      date_modified: iso(item.updated ?? item.published),
    })),
  };
  return `${JSON.stringify(feed, null, 2)}\n`;
}

/**
 * Titles, the feed's description and tombstone comments as plain words: every format calls them
 * text, yet many readers render an RSS title (or the others) as HTML, so escaping is not enough.
 */
function inPlainWords(doc: FeedDocument): FeedDocument {
  return {
    ...doc,
    title: toPlainWords(doc.title),
    description: toPlainWords(doc.description),
    items: doc.items.map((item) => ({ ...item, title: toPlainWords(item.title) })),
    ...(doc.tombstones ? { tombstones: doc.tombstones.map((t) => ({ ...t, comment: toPlainWords(t.comment) })) } : {}),
  };
}

/** The document in one format. */
export function renderFeed(doc: FeedDocument, format: FeedFormat): string {
  const plain = inPlainWords(doc);
  if (format === "atom") return renderAtom(plain);
  if (format === "rss") return renderRss(plain);
  return renderJsonFeed(plain);
}
