import { awsLegacyPlatform } from "@/scrapers/platforms/aws-legacy";
import { gcpPlatform } from "@/scrapers/platforms/gcp";
import type { Platform } from "@/scrapers/platforms/platform";
import { slackHistoryPlatform, slackPlatform } from "@/scrapers/platforms/slack";

/** The adapters for vendors that run their own status API rather than a hosted status page. */
export const otherPlatforms: Platform[] = [gcpPlatform, slackPlatform, slackHistoryPlatform, awsLegacyPlatform];
