/**
 * Azure status RSS (https://azure.status.microsoft/en-us/status/feed/, linked from
 * https://learn.microsoft.com/en-us/azure/service-health/azure-status-overview): the current
 * incidents and advisories only, an empty channel when all is well. Each item is one event: a
 * "Service - Region - Status" title, the service areas and regions as <category>, one HTML narrative
 * that Azure rewrites as the event goes on, and its last update time as pubDate (often with a bare
 * "Z" zone). The narrative is the event's latest update only, so one it replaces is never removed.
 */
import type { StatedField } from "@/lib/derive/source-profile";
import { htmlToText } from "@/lib/html-to-text";
import type { Incident } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { deriveUpdateIds } from "@/lib/update-identity";
import type { Platform } from "@/scrapers/platforms/platform";
import { type FeedItem, feedItemTime, readFeedItems, type ReadFeedItem } from "@/scrapers/platforms/feed-document";
import { SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const RESOLVED_TAG = /^\s*[[(]\s*resolved\s*[\])]\s*/i;
const TRACKING_ID = /\bTracking ID:?\s*([A-Z0-9]{3,5}-[A-Z0-9]{2,5})\b/i;
const CLAUSE_SPLIT = /\s+[-–—:;]\s+/;

/** Azure puts the current state last in the title ("… - Mitigated"); a leading [RESOLVED] wins. */
function statusOf(title: string): string {
  if (RESOLVED_TAG.test(title)) return "resolved";
  const last = (title.split(CLAUSE_SPLIT).at(-1) ?? "").trim().toLowerCase();
  if (/^(?:resolved|mitigated)$/.test(last)) return last;
  return "active";
}

function keyOf(item: FeedItem): { key: string | null; fromLink: boolean } {
  const tracking = TRACKING_ID.exec(`${item.title ?? ""} ${htmlToText(item.html)}`)?.[1]?.toUpperCase();
  const key = item.guid ?? item.id ?? tracking ?? null;
  return key !== null ? { key, fromLink: false } : { key: item.link, fromLink: true };
}

function reshapeItem(item: FeedItem, key: string, at: string | null, vendor: string): Incident {
  const title = (item.title ?? "").replace(RESOLVED_TAG, "").trim();
  const body = htmlToText(item.html);
  const [updateId = "~undated"] = deriveUpdateIds([at ?? "undated"]);
  return {
    vendor,
    id: key,
    kind: "incident",
    title,
    status: statusOf(item.title ?? ""),
    impact: null,
    url: item.link,
    startedAt: null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: item.categories.map((name) => ({ id: name, name })),
    updates: body === "" ? [] : [{ id: updateId, status: null, body, createdAt: at, displayAt: at }],
    postmortem: null,
  };
}

/**
 * One item as an event. Unreadable categories leave the components unstated; an unreadable date
 * skips the narrative, whose id and time come from it.
 */
function readItem(reader: SnapshotReader, read: ReadFeedItem, key: string): void {
  const at = feedItemTime(read);
  const incident = reshapeItem(read.item, key, at ?? null, reader.context.vendor);
  const unstated: StatedField[] = read.failed.has("categories") ? ["components"] : [];
  const skipped = at === undefined && incident.updates.length > 0;
  reader.observe({ incident: skipped ? { ...incident, updates: [] } : incident, path: read.path, unstated, partialUpdates: skipped });
}

async function parseAzureFeed(body: Uint8Array, reader: SnapshotReader): Promise<void> {
  const items = await readFeedItems(reader, body, reader.context);
  const keys = items.map((read) => keyOf(read.item));
  const links = keys.filter((k) => k.fromLink).map((k) => k.key);
  const seen = new Set<string>();
  items.forEach((read, i) => {
    const { key, fromLink } = keys[i] ?? { key: null, fromLink: false };
    // The link is often the status page itself, shared by every item: it identifies nothing then.
    if (key === null || (fromLink && links.filter((l) => l === key).length > 1)) {
      reader.unreadIncident(null, read.path, "item has no guid, tracking ID or link of its own");
      return;
    }
    if (seen.has(key)) return;
    seen.add(key);
    readItem(reader, read, key);
  });
}

export const azurePlatform: Platform = {
  name: "azure-rss",
  description: "Azure status RSS: current incidents and advisories, one narrative each",
  profile: PLATFORM_PROFILES["azure-rss"],
  parserVersion: 1,
  async parse(body, ctx) {
    const reader = new SnapshotReader(ctx);
    await parseAzureFeed(body, reader);
    return reader.snapshot();
  },
};
