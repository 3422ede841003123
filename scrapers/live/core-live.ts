/**
 * Live polling plans for the platforms whose parsers Redline started with: Statuspage (see
 * statuspage-live.ts), Google Cloud, Slack, AWS, and any import platform at an exact endpoint URL.
 */
import { atOrigin, type LivePlatform, pointsAt } from "@/scrapers/live/live-platform";
import type { Platform } from "@/scrapers/platforms/platform";

/** An import platform polled at exactly the URL given (e.g. statuspage-summary at …/summary.json). */
export function directLive(platform: Platform): LivePlatform {
  return {
    name: platform.name,
    description: `${platform.description} (exact endpoint URL)`,
    docs: "docs/platforms.md#platforms",
    plan: (url) => ({ endpoints: [{ url: url.toString(), platform: platform.name }] }),
  };
}

export const gcpLive: LivePlatform = {
  name: "gcp",
  description: "Google Cloud Service Health (base URL https://status.cloud.google.com): incidents.json",
  docs: "https://docs.cloud.google.com/service-health/docs/service-health-fallback",
  plan: (url) => ({ endpoints: [{ url: pointsAt(url, ".json") ? url.toString() : atOrigin(url, "/incidents.json"), platform: "gcp" }] }),
};

export const slackLive: LivePlatform = {
  name: "slack",
  description: "Slack status (base URL https://slack-status.com): the v2 history API, which lists active and recent incidents",
  docs: "https://docs.slack.dev/reference/slack-status-api",
  plan(url) {
    if (pointsAt(url, "/current")) return { endpoints: [{ url: url.toString(), platform: "slack" }] };
    if (pointsAt(url, "/history")) return { endpoints: [{ url: url.toString(), platform: "slack-history" }] };
    return { endpoints: [{ url: atOrigin(url, "/api/v2.0.0/history"), platform: "slack-history" }] };
  },
};

export const awsLegacyLive: LivePlatform = {
  name: "aws-legacy",
  description: "AWS Service Health Dashboard data.json (retired by AWS in 2023; for archives and the simulator)",
  docs: "https://status.aws.amazon.com/",
  plan: (url) => ({ endpoints: [{ url: pointsAt(url, ".json") ? url.toString() : atOrigin(url, "/data.json"), platform: "aws-legacy" }] }),
};
