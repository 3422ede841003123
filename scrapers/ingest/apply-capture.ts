import type { RedlineDb } from "@/db/client";
import { type CaptureKey, loadPriorState } from "@/db/prior-state";
import { bodyReader } from "@/db/capture-bodies";
import { recordDerivation, setAppliedThrough, warningsJson } from "@/db/record-capture";
import { type CaptureRow, writeStatements } from "@/db/write-statements";
import { deriveCapture, prepareObservations } from "@/lib/derive/derive-capture";
import { type ParseOutcome, parseSnapshot } from "@/scrapers/ingest/parse-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";

export type PlatformResolver = (name: string) => Platform | undefined;

/** A recorded capture, read with today's parser: what applying it needs. */
export interface ReadCapture {
  captureId: number;
  key: CaptureKey;
  platform: Platform;
  parsed: ParseOutcome;
}

export class DerivationError extends Error {
  readonly kind = "derivation";
}

/**
 * Apply one read capture to the vendor's history: load the prior records it concerns, derive,
 * record. Runs inside the caller's transaction. Only good captures change anything; each one
 * becomes the vendor's latest applied capture.
 */
export function applyCapture(db: RedlineDb, vendor: { id: number; name: string }, capture: ReadCapture, resolve: PlatformResolver = getPlatform): number {
  const { parsed, platform, key } = capture;
  if (parsed.outcome !== "ok" || parsed.snapshot === null) {
    setAppliedThrough(db, vendor.id, key);
    return 0;
  }
  const { profile } = platform;
  const observations = prepareObservations(parsed.snapshot);
  const prior = loadPriorState(db, vendor.id, key, profile.presence, observations, (name) => resolve(name)?.profile.presence);
  const derivation = deriveCapture({
    vendorName: vendor.name,
    source: key.source,
    observedAt: key.observedAt,
    profile,
    observations,
    unread: parsed.snapshot.unread,
    ...prior,
  });
  const versions = recordDerivation(db, { vendorId: vendor.id, captureId: capture.captureId, source: key.source, observedAt: key.observedAt }, derivation, prior.ids);
  setAppliedThrough(db, vendor.id, key);
  return versions;
}

/** A stored capture as it reads with today's parser (one without a kept body is as recorded). */
export async function readStoredCapture(
  row: CaptureRow,
  vendorSlug: string,
  bodyOf: (hash: string) => Uint8Array,
  resolve: PlatformResolver = getPlatform,
): Promise<ReadCapture> {
  const platform = resolve(row.platform);
  if (!platform) throw new DerivationError(`rederive: vendor ${vendorSlug} has captures of unknown platform ${row.platform}`);
  const key = { observedAt: row.observedAt, source: row.source, hash: row.hash };
  const parsed: ParseOutcome =
    row.bodyHash === null
      ? { outcome: row.outcome, error: row.error, snapshot: null }
      : await parseSnapshot(platform, bodyOf(row.bodyHash), { vendor: vendorSlug, source: row.source, observedAt: row.observedAt });
  return { captureId: row.id, key, platform, parsed };
}

/** What a capture says once read again: its outcome and warnings may differ under a newer parser. */
export function saveCaptureReading(db: RedlineDb, capture: ReadCapture): void {
  const { parsed } = capture;
  const warnings = parsed.snapshot?.warnings ?? [];
  writeStatements(db.$client).setCaptureRead.run({
    id: capture.captureId,
    outcome: parsed.outcome,
    error: parsed.error,
    incidentCount: parsed.snapshot ? parsed.snapshot.observations.length + parsed.snapshot.unread.length : null,
    warnings: warningsJson(warnings),
    warningCount: warnings.length,
  });
}

/** Read a vendor's stored captures from `from` on (in capture order), at most `limit`. */
export async function readCapturesFrom(
  db: RedlineDb,
  vendor: { id: number; slug: string },
  from: CaptureKey,
  limit: number,
  resolve: PlatformResolver = getPlatform,
  bodyOf: (hash: string) => Uint8Array = bodyReader(db),
): Promise<ReadCapture[]> {
  const rows = writeStatements(db.$client).capturesFrom.all(vendor.id, from.observedAt, from.source, from.hash, limit);
  const out: ReadCapture[] = [];
  for (const row of rows) out.push(await readStoredCapture(row, vendor.slug, bodyOf, resolve));
  return out;
}
