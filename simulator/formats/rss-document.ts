/**
 * An RSS 2.0 document (https://www.rssboard.org/rss-specification), shared by the feeds vendors
 * publish: every text escaped, item HTML escaped into <description> rather than wrapped in CDATA,
 * so no body can close the section early.
 */
import { escapeXml } from "@/simulator/formats/wire-format";

export interface RssChannel {
  title: string;
  link: string;
  description: string;
}

export interface RssItem {
  title: string;
  link: string;
  guid: string;
  /** False when the guid is no URL (a tracking id). */
  guidIsPermaLink?: boolean;
  /** Already in RFC 822 form. */
  pubDate: string;
  categories?: readonly string[];
  /** HTML. */
  description: string;
}

function renderItem(item: RssItem): string {
  const permaLink = item.guidIsPermaLink === false ? ' isPermaLink="false"' : "";
  const categories = (item.categories ?? []).map((c) => `      <category>${escapeXml(c)}</category>\n`).join("");
  return (
    `    <item>\n      <title>${escapeXml(item.title)}</title>\n      <link>${escapeXml(item.link)}</link>\n` +
    `      <guid${permaLink}>${escapeXml(item.guid)}</guid>\n${categories}` +
    `      <description>${escapeXml(item.description)}</description>\n      <pubDate>${item.pubDate}</pubDate>\n    </item>\n`
  );
}

export function renderRss(channel: RssChannel, items: readonly RssItem[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0">\n  <channel>\n` +
    `    <title>${escapeXml(channel.title)}</title>\n    <link>${escapeXml(channel.link)}</link>\n` +
    `    <description>${escapeXml(channel.description)}</description>\n${items.map(renderItem).join("")}  </channel>\n</rss>\n`
  );
}

export const RSS_CONTENT_TYPE = "application/rss+xml; charset=utf-8";
