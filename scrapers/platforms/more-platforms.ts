import { azurePlatform } from "@/scrapers/platforms/azure";
import { betterstackPlatforms } from "@/scrapers/platforms/betterstack";
import { cachetV2Platform, cachetV3Platform } from "@/scrapers/platforms/cachet";
import { cachetComponentPlatforms } from "@/scrapers/platforms/cachet-components";
import { incidentioPlatforms } from "@/scrapers/platforms/incidentio";
import { instatusSummaryPlatform } from "@/scrapers/platforms/instatus";
import { instatusComponentsPlatform } from "@/scrapers/platforms/instatus-components";
import type { Platform } from "@/scrapers/platforms/platform";
import { rssFeedPlatform } from "@/scrapers/platforms/rss-feed";
import { statuspageIncidentPagePlatform } from "@/scrapers/platforms/statuspage-incident-page";

/** Hosted status-page products beyond Statuspage, Azure, any RSS/Atom feed, and Statuspage postmortem pages. */
export const morePlatforms: Platform[] = [
  ...incidentioPlatforms,
  instatusSummaryPlatform,
  instatusComponentsPlatform,
  ...betterstackPlatforms,
  cachetV2Platform,
  cachetV3Platform,
  ...cachetComponentPlatforms,
  azurePlatform,
  rssFeedPlatform,
  statuspageIncidentPagePlatform,
];
