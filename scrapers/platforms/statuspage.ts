/**
 * Every Atlassian Statuspage source Redline reads: the public v2 JSON API
 * (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/) and the history feeds.
 */
import type { Platform } from "@/scrapers/platforms/platform";
import { statuspageAtomFallbackPlatform, statuspageAtomPlatform, statuspageRssPlatform } from "@/scrapers/platforms/statuspage-feed";
import { statuspageComponentsPlatform } from "@/scrapers/platforms/statuspage-components";
import { statuspageIncidentPlatform } from "@/scrapers/platforms/statuspage-incident";
import { statuspageIncidentsPlatform } from "@/scrapers/platforms/statuspage-incidents";
import { statuspageSummaryPlatform } from "@/scrapers/platforms/statuspage-summary";

export const statuspagePlatforms: Platform[] = [
  statuspageSummaryPlatform,
  statuspageIncidentsPlatform,
  statuspageComponentsPlatform,
  statuspageIncidentPlatform,
  statuspageAtomPlatform,
  statuspageRssPlatform,
  statuspageAtomFallbackPlatform,
];
