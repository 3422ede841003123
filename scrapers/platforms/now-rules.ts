import type { NowRules } from "@/db/queries/vendors-overview";
import { readEnv } from "@/lib/env";
import { getPlatform } from "@/scrapers/platforms";

let rules: NowRules | undefined;

/** What pages need to say a vendor's state now: each format's declared profile, and the poller's default interval. */
export function readNowRules(): NowRules {
  rules ??= {
    profileOf: (platform) => getPlatform(platform)?.profile ?? null,
    defaultIntervalMs: readEnv().REDLINE_POLL_INTERVAL_SECONDS * 1000,
  };
  return rules;
}
