import { awsLegacyLive, directLive, gcpLive, slackLive } from "@/scrapers/live/core-live";
import type { LivePlatform } from "@/scrapers/live/live-platform";
import { moreLivePlatforms } from "@/scrapers/live/more-live";
import { statuspageLive } from "@/scrapers/live/statuspage-live";
import { PLATFORMS } from "@/scrapers/platforms";

/** Product families polled from a base URL, then every import platform at an exact endpoint URL. */
const FAMILIES: readonly LivePlatform[] = [statuspageLive, gcpLive, slackLive, awsLegacyLive, ...moreLivePlatforms];

export const LIVE_PLATFORMS: readonly LivePlatform[] = [
  ...FAMILIES,
  ...PLATFORMS.filter((p) => !FAMILIES.some((f) => f.name === p.name)).map(directLive),
];

export function getLivePlatform(name: string): LivePlatform | undefined {
  return LIVE_PLATFORMS.find((p) => p.name === name);
}
