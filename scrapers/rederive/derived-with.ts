import type { RedlineDb } from "@/db/client";
import { writeStatements } from "@/db/record/write-statements";
import { DERIVATION_KEY, DERIVATION_VERSION, type DerivedWith, isStale } from "@/lib/derive/derivation-version";
import { parseDerivedWith } from "@/lib/derive/capture-place";
import type { PlatformResolver } from "@/scrapers/ingest/read-captures";

/** The parser versions today's code reads the vendor's captures with, and today's derivation. */
export async function currentDerivedWith(db: RedlineDb, vendorId: number, resolve: PlatformResolver): Promise<DerivedWith> {
  const platforms = await writeStatements(db).capturePlatforms.all(vendorId);
  const out: DerivedWith = { [DERIVATION_KEY]: DERIVATION_VERSION };
  for (const { platform } of platforms) {
    const version = resolve(platform)?.parserVersion;
    if (version !== undefined) out[platform] = version;
  }
  return out;
}

/** Whether the vendor's stored history was derived by older parsers or an older derivation. */
export function historyIsStale(vendor: { derivedWith: string | null; appliedObservedAt: string | null }, resolve: PlatformResolver): boolean {
  if (vendor.appliedObservedAt === null && vendor.derivedWith === null) return false;
  return isStale(parseDerivedWith(vendor.derivedWith), (name) => resolve(name)?.parserVersion);
}
