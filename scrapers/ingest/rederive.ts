import type { RedlineDb } from "@/db/client";
import { listCapturesForReplay, readCaptureBody, type ReplayedCapture, replaceHistory } from "@/db/record-capture";
import type { VendorRow } from "@/db/vendors";
import { parseSnapshot } from "@/scrapers/ingest/parse-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { carryOf, type Platform } from "@/scrapers/platforms/platform";

/** Which parser version derived each platform's captures of this vendor. */
export function derivedWithOf(vendor: VendorRow): Record<string, number> {
  if (!vendor.derivedWith) return {};
  try {
    const parsed: unknown = JSON.parse(vendor.derivedWith);
    if (parsed && typeof parsed === "object") {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"));
    }
  } catch {
    // A corrupt marker only forces a re-derivation, which is always safe.
  }
  return {};
}

export interface RederiveResult {
  captures: number;
  versions: number;
}

/**
 * Rebuild a vendor's history from its stored raw captures with the current parsers: after a
 * parser fix, and after captures arrived out of order. Derived versions are replaced, never appended.
 */
export async function rederiveVendor(
  db: RedlineDb,
  vendor: VendorRow,
  resolvePlatform: (name: string) => Platform | undefined = getPlatform,
): Promise<RederiveResult> {
  const stored = listCapturesForReplay(db, vendor.id);
  const replayed: ReplayedCapture[] = [];
  const derivedWith: Record<string, number> = {};
  for (const capture of stored) {
    const platform = resolvePlatform(capture.platform);
    if (!platform) throw new Error(`rederive: vendor ${vendor.slug} has captures of unknown platform ${capture.platform}`);
    derivedWith[platform.name] = platform.parserVersion;
    if (capture.bodyHash === null) {
      replayed.push({ capture, presence: platform.presence, carry: carryOf(platform), outcome: capture.outcome, error: capture.error, incidents: null });
      continue;
    }
    const body = readCaptureBody(db, capture.bodyHash);
    const parsed = await parseSnapshot(platform, body, { vendor: vendor.slug, source: capture.source, observedAt: capture.observedAt });
    replayed.push({ capture, presence: platform.presence, carry: carryOf(platform), ...parsed });
  }
  const versions = replaceHistory(db, vendor, replayed, derivedWith);
  return { captures: stored.length, versions };
}
