/**
 * Any RSS 2.0 or Atom feed (https://www.rssboard.org/rss-specification, RFC 4287): an engineering
 * blog's postmortems, a vendor changelog, AWS's https://status.aws.amazon.com/rss/all.rss. Each item
 * is one incident with one update, its text.
 */
import type { StatedField } from "@/lib/derive/source-profile";
import { htmlToText } from "@/lib/html-to-text";
import type { Incident } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { deriveUpdateIds } from "@/lib/update-identity";
import { type FeedItem, feedItemTime, readFeedItems, type ReadFeedItem } from "@/scrapers/platforms/feed-document";
import type { Platform } from "@/scrapers/platforms/platform";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

function reshapeFeedItem(item: FeedItem, key: string, at: string | null, vendor: string): Incident {
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

/**
 * One item as an incident; one without guid, id or link cannot be followed and is unreadable. An
 * item whose date cannot be read states no start, and its one update, whose id and times come from
 * that date, is skipped.
 */
function readItem(reader: SnapshotReader, read: ReadFeedItem, seen: Set<string>, vendor: string): void {
  const { item, path } = read;
  const key = item.guid ?? item.id ?? item.link;
  if (key === null) {
    reader.unreadIncident(null, path, "item has no guid, id or link");
    return;
  }
  if (seen.has(key)) return;
  seen.add(key);
  const at = feedItemTime(read);
  const incident = reshapeFeedItem(item, key, at ?? null, vendor);
  if (at !== undefined) {
    reader.observe({ incident, path, unstated: [], partialUpdates: false });
    return;
  }
  const unstated: StatedField[] = ["startedAt"];
  reader.observe({ incident: { ...incident, updates: [] }, path, unstated, partialUpdates: incident.updates.length > 0 });
}

export const rssFeedPlatform: Platform = {
  name: "rss",
  description: "Any RSS 2.0 or Atom feed: one incident per item (postmortem blogs, changelogs, AWS all.rss)",
  profile: PLATFORM_PROFILES.rss,
  parserVersion: 1,
  async parse(body, ctx) {
    const reader = new SnapshotReader(ctx);
    const seen = new Set<string>();
    for (const read of await readFeedItems(reader, body, ctx)) readItem(reader, read, seen, ctx.vendor);
    return reader.snapshot();
  },
};
