/**
 * Any RSS 2.0 or Atom feed (https://www.rssboard.org/rss-specification, RFC 4287): an engineering
 * blog's postmortems, a vendor changelog, AWS's https://status.aws.amazon.com/rss/all.rss. Each item
 * is one incident with one update, its text.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { EXACT_UPDATES, statingOnly } from "@/lib/derive/source-profile";
import { htmlToText } from "@/lib/html-to-text";
import type { Incident } from "@/lib/incident";
import { keepFirstById } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { type FeedItem, feedItemTime, invalidFeedItem, readFeedItems } from "@/scrapers/platforms/feed-document";
import type { ParseContext, Platform } from "@/scrapers/platforms/platform";

/** A feed item's key; an item with neither guid, id nor link cannot be followed and fails the snapshot. */
function itemKey(item: FeedItem, index: number, ctx: ParseContext): string {
  const key = item.guid ?? item.id ?? item.link;
  if (key === null) throw invalidFeedItem(ctx, `items[${index}]`, "item has no guid, id or link");
  return key;
}

export function reshapeFeedItem(item: FeedItem, key: string, vendor: string): Incident {
  const at = feedItemTime(item);
  const [updateId = "~undated"] = deriveUpdateIds([at ?? "undated"]);
  const body = htmlToText(item.html);
  return {
    vendor,
    id: key,
    kind: "incident",
    title: item.title ?? "",
    status: null,
    impact: null,
    url: item.link,
    startedAt: at,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates: body === "" ? [] : [{ id: updateId, status: null, body, createdAt: at, displayAt: at }],
    postmortem: null,
  };
}

export const rssFeedPlatform: Platform = {
  name: "rss",
  description: "Any RSS 2.0 or Atom feed: one incident per item (postmortem blogs, changelogs, AWS all.rss)",
  // A plain feed says nothing of status, impact, components or resolution; another source may.
  profile: statingOnly({ kind: "recent", limit: null }, ["title", "url", "startedAt"], EXACT_UPDATES),
  parserVersion: 1,
  async parse(body, ctx) {
    const items = await readFeedItems(body, ctx);
    return wholeSnapshot(keepFirstById(items.map((item, i) => reshapeFeedItem(item, itemKey(item, i, ctx), ctx.vendor))));
  },
};
