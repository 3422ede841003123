import { FEED_FORMATS } from "@/lib/render/feed";
import { paths } from "@/lib/incident-key";

export interface TopicVersion {
  vendorSlug: string;
  providerId: string;
  kinds: readonly string[];
  /** Names of the watchlists whose feeds show the version. */
  watchlists?: readonly string[];
}

/**
 * Every feed URL (all formats, no query string) that gains an entry from these versions: the
 * global feed, each kind's, the vendor's, the vendor's per kind, the incident's and its watchlists'. Sorted, once each.
 */
export function feedTopics(origin: string, versions: readonly TopicVersion[]): string[] {
  const topics = new Set<string>();
  for (const version of versions) {
    for (const format of FEED_FORMATS) {
      topics.add(paths.allFeed(format));
      topics.add(paths.vendorFeed(version.vendorSlug, format));
      topics.add(paths.incidentFeed(version.vendorSlug, version.providerId, format));
      for (const name of version.watchlists ?? []) topics.add(paths.watchlistFeed(name, format));
      for (const kind of version.kinds) {
        topics.add(paths.kindFeed(kind, format));
        topics.add(paths.vendorKindFeed(version.vendorSlug, kind, format));
      }
    }
  }
  return [...topics].map((path) => new URL(path, origin).href).sort();
}
