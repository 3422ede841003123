import type { RedlineDb } from "@/db/client";
import { findCapture, type CaptureResult, recordCapture, setDerivedWith } from "@/db/record-capture";
import { getVendorBySlug, type VendorRow } from "@/db/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { parseSnapshot } from "@/scrapers/ingest/parse-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import { carryOf, type Platform } from "@/scrapers/platforms/platform";
import { derivedWithOf, rederiveVendor } from "@/scrapers/ingest/rederive";

export interface SnapshotInput {
  vendor: VendorRow;
  platform: Platform;
  source: string;
  observedAt: string;
  body: Uint8Array;
}

/**
 * Record one fetched or imported snapshot: skip it if already recorded, re-derive the vendor's
 * history first if any of its platforms' parsers changed since, then parse and record in one
 * transaction.
 */
export async function ingestSnapshot(
  db: RedlineDb,
  input: SnapshotInput,
  resolvePlatform?: (name: string) => Platform | undefined,
): Promise<CaptureResult> {
  const { platform } = input;
  // The caller's row may predate a re-derivation: the parser marker must be read fresh.
  const vendor = getVendorBySlug(db, input.vendor.slug) ?? input.vendor;
  const hash = sha256Hex(input.body);
  // A capture recorded before is not recorded again, and reports how it went then: a broken
  // snapshot seen twice is still broken.
  const recorded = findCapture(db, vendor.id, input.source, input.observedAt, hash);
  if (recorded) {
    return { captureId: null, duplicate: true, outcome: recorded.outcome, error: recorded.error, versionsAdded: 0, outOfOrder: false };
  }
  const derived = derivedWithOf(vendor);
  const known = derived[platform.name];
  const resolve = (name: string) => (name === platform.name ? platform : (resolvePlatform ?? getPlatform)(name));
  const stale = Object.entries(derived).some(([name, version]) => resolve(name)?.parserVersion !== version);
  if (stale) await rederiveVendor(db, vendor, resolve);
  const parsed = await parseSnapshot(platform, input.body, { vendor: vendor.slug, source: input.source, observedAt: input.observedAt });
  const result = recordCapture(db, {
    vendor,
    source: input.source,
    platform: platform.name,
    presence: platform.presence,
    carry: carryOf(platform),
    observedAt: input.observedAt,
    hash,
    body: input.body,
    outcome: parsed.outcome,
    error: parsed.error,
    incidents: parsed.incidents,
  });
  if (known === undefined) {
    setDerivedWith(db, vendor.id, { ...derivedWithOf(getVendorBySlug(db, vendor.slug) ?? vendor), [platform.name]: platform.parserVersion });
  }
  return result;
}
