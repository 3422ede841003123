import { bodyReader } from "@/db/history/capture-bodies";
import type { RedlineDb } from "@/db/driver/database";
import type { ReadCapture } from "@/db/record/apply";
import { type CaptureRow, writeStatements } from "@/db/record/write-statements";
import type { CaptureKey } from "@/lib/derive/capture-key";
import { type ParseOutcome, parseSnapshot } from "@/scrapers/ingest/parse-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";

export type PlatformResolver = (name: string) => Platform | undefined;

export class DerivationError extends Error {
  readonly kind = "derivation";
}

/** A stored capture as it reads with today's parser (one without a kept body is as recorded). */
export async function readStoredCapture(
  row: CaptureRow,
  vendorSlug: string,
  bodyOf: (hash: string) => Promise<Uint8Array>,
  resolve: PlatformResolver = getPlatform,
): Promise<ReadCapture> {
  const platform = resolve(row.platform);
  if (!platform) throw new DerivationError(`rederive: vendor ${vendorSlug} has captures of unknown platform ${row.platform}`);
  const key = { observedAt: row.observedAt, source: row.source, hash: row.hash };
  const parsed: ParseOutcome =
    row.bodyHash === null
      ? { outcome: row.outcome, error: row.error, snapshot: null }
      : await parseSnapshot(platform, await bodyOf(row.bodyHash), { vendor: vendorSlug, source: row.source, observedAt: row.observedAt });
  return { captureId: row.id, key, platform, parsed, lastObservedAt: row.lastObservedAt };
}

/** Read a vendor's stored captures from `from` on (in capture order), at most `limit`. */
export async function readCapturesFrom(
  db: RedlineDb,
  vendor: { id: number; slug: string },
  from: CaptureKey,
  limit: number,
  resolve: PlatformResolver = getPlatform,
  bodyOf: (hash: string) => Promise<Uint8Array> = bodyReader(db),
): Promise<ReadCapture[]> {
  const rows = await writeStatements(db).capturesFrom.all(vendor.id, from.observedAt, from.source, from.hash, limit);
  const out: ReadCapture[] = [];
  for (const row of rows) out.push(await readStoredCapture(row, vendor.slug, bodyOf, resolve));
  return out;
}
