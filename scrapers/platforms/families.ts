/**
 * Platform families: the status-page product a platform reads, whether it is an import platform
 * (one format, e.g. statuspage-atom) or a live platform (a poll plan, e.g. statuspage). Snapshots
 * of one family describe the same incidents with the same ids, so they can share a vendor.
 */

export const PLATFORM_FAMILIES = ["statuspage", "incidentio", "instatus", "betterstack", "cachet", "azure", "aws", "gcp", "slack", "rss"] as const;

export type PlatformFamily = (typeof PLATFORM_FAMILIES)[number];

const FAMILY_BY_PLATFORM: ReadonlyMap<string, PlatformFamily> = new Map<string, PlatformFamily>([
  ["statuspage", "statuspage"],
  ["statuspage-summary", "statuspage"],
  ["statuspage-incidents", "statuspage"],
  ["statuspage-components", "statuspage"],
  ["statuspage-incident", "statuspage"],
  ["statuspage-atom", "statuspage"],
  ["statuspage-rss", "statuspage"],
  ["statuspage-atom-fallback", "statuspage"],
  ["statuspage-incident-page", "statuspage"],
  ["incidentio", "incidentio"],
  ["incidentio-incidents", "incidentio"],
  ["incidentio-feed", "incidentio"],
  ["incidentio-widget", "incidentio"],
  ["instatus", "instatus"],
  ["instatus-summary", "instatus"],
  ["instatus-components", "instatus"],
  ["betterstack", "betterstack"],
  ["betterstack-index", "betterstack"],
  ["betterstack-rss", "betterstack"],
  ["cachet-v2", "cachet"],
  ["cachet-v3", "cachet"],
  ["cachet-v2-components", "cachet"],
  ["cachet-v2-groups", "cachet"],
  ["cachet-v3-components", "cachet"],
  ["azure", "azure"],
  ["azure-rss", "azure"],
  // The live `aws` platform reads AWS's all.rss with the generic rss parser, but its incidents
  // are AWS's, as are the retired data.json's: a generic feed could be anyone's.
  ["aws", "aws"],
  ["aws-legacy", "aws"],
  ["gcp", "gcp"],
  ["slack", "slack"],
  ["slack-history", "slack"],
  ["rss", "rss"],
]);

/** The family of an import or live platform name; undefined for a name Redline does not know. */
export function platformFamily(name: string): PlatformFamily | undefined {
  return FAMILY_BY_PLATFORM.get(name);
}

/** Whether two platform names read the same product; an unknown name matches only itself. */
export function isSameFamily(a: string, b: string): boolean {
  const family = platformFamily(a);
  return family === undefined ? a === b : family === platformFamily(b);
}

/** "the statuspage family (statuspage-summary)", or "the gcp family" for a platform named after its family. */
export function describePlatformFamily(name: string): string {
  const family = platformFamily(name) ?? name;
  return family === name ? `the ${family} family` : `the ${family} family (${name})`;
}
