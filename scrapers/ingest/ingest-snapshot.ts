import type { RedlineDb } from "@/db/driver/database";
import { type CaptureResult, findRecordedObservation, recordCapture } from "@/db/record/record";
import type { VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import { type ParseOutcome, parseSnapshot } from "@/scrapers/ingest/parse-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";
import type { PlatformResolver } from "@/scrapers/ingest/read-captures";

export type { CaptureResult };

export interface SnapshotInput {
  vendor: VendorRow;
  platform: Platform;
  source: string;
  observedAt: string;
  body: Uint8Array;
  /**
   * Whether the versions it adds notify subscriptions: polls and pushes do; imports only when
   * asked, so loading years of history floods no one.
   */
  notify?: boolean;
  /**
   * Observed after everything the vendor had recorded (an import past the archive's end): it cannot
   * have been recorded before, so it is not looked for before parsing (recording still places it).
   */
  fresh?: boolean;
}

/**
 * Ingest one fetched, pushed or imported snapshot: parse it (scrapers/platforms), then record it
 * (db/record/record.ts: placed, derived and written in one transaction). A capture recorded before
 * is not parsed again: it reports how it went then, so a broken snapshot seen twice is still broken.
 */
export async function ingestSnapshot(db: RedlineDb, input: SnapshotInput, resolvePlatform?: PlatformResolver): Promise<CaptureResult> {
  const { vendor } = input;
  const hash = sha256Hex(input.body);
  const recorded = input.fresh ? undefined : await findRecordedObservation(db, vendor.id, input.source, input.observedAt, hash);
  if (recorded) return { captureId: null, duplicate: true, versionsAdded: 0, warnings: [], pending: false, outcome: recorded.outcome, error: recorded.error };
  const parsed = await parseSnapshot(input.platform, input.body, { vendor: vendor.slug, source: input.source, observedAt: input.observedAt });
  return recordCapture(db, { ...input, vendor, hash, parsed }, resolvePlatform ?? getPlatform);
}

/** Record an already parsed capture (its body kept when given): ingestSnapshot's second half. */
export async function recordParsed(
  db: RedlineDb,
  input: Omit<SnapshotInput, "body"> & { body: Uint8Array | null; hash: string },
  parsed: ParseOutcome,
  resolvePlatform: PlatformResolver = getPlatform,
): Promise<CaptureResult> {
  return recordCapture(db, { ...input, parsed }, resolvePlatform);
}
