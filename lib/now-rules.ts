import type { SourceProfile } from "@/lib/derive/source-profile";
import { readEnv } from "@/lib/env";
import { platformProfileOf } from "@/lib/platform-profiles";

/** How the pages read "now": each platform's declared format, and the poll interval of vendors without their own. */
export interface NowRules {
  profileOf: (platform: string) => SourceProfile | null;
  defaultIntervalMs: number;
}

let rules: NowRules | undefined;

/** The Now rules of this process: the platforms' profiles (lib/platform-profiles.ts) and the poller's default interval. */
export function readNowRules(): NowRules {
  rules ??= { profileOf: platformProfileOf, defaultIntervalMs: readEnv().REDLINE_POLL_INTERVAL_SECONDS * 1000 };
  return rules;
}

/** What the page as it was at a moment rests on and counts open, read off the platforms' declared formats. */
export function statusRules(profileOf: NowRules["profileOf"] = platformProfileOf): { isListing: (platform: string) => boolean; statesEnd: (platform: string | null) => boolean } {
  return {
    // A follow-up page read for one incident says nothing of the page as a whole.
    isListing: (platform) => {
      const profile = profileOf(platform);
      return profile === null || profile.createsIncidents || profile.components !== undefined;
    },
    statesEnd: (platform) => {
      const profile = platform === null ? null : profileOf(platform);
      return profile === null || profile.fields.status !== undefined || profile.fields.resolvedAt !== undefined;
    },
  };
}
