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
