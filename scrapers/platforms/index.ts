import { morePlatforms } from "@/scrapers/platforms/more-platforms";
import { otherPlatforms } from "@/scrapers/platforms/other-platforms";
import type { Platform } from "@/scrapers/platforms/platform";
import { statuspagePlatforms } from "@/scrapers/platforms/statuspage";

/** Every platform Redline can read, by name. */
export const PLATFORMS: readonly Platform[] = [...statuspagePlatforms, ...otherPlatforms, ...morePlatforms];

export const PLATFORM_NAMES: readonly string[] = PLATFORMS.map((p) => p.name);

export function getPlatform(name: string): Platform | undefined {
  return PLATFORMS.find((p) => p.name === name);
}
