import type { RedlineDb } from "@/db/client";
import { bodyReader } from "@/db/history/capture-bodies";
import { replayCaptures } from "@/db/record/record";
import type { CaptureKey } from "@/lib/derive/capture-key";
import { type PlatformResolver, readCapturesFrom } from "@/scrapers/ingest/read-captures";
import { getPlatform } from "@/scrapers/platforms";

export interface ReplayResult {
  captures: number;
  versions: number;
  /** How long its one transaction held the write lock (ms). */
  holdMs: number;
}

/** A capture recorded while the captures were being read: read them again, at most this often. */
const MAX_ATTEMPTS = 5;

/**
 * Re-derive a vendor's history from `from` on, in place: the captures from there are read (parsed
 * outside any transaction), then one transaction rewinds the history to just before `from` and
 * applies them in order. Null when more than `limit` captures follow `from` (a rebuild aside is
 * the better way then, holding no lock for long) or when captures kept arriving meanwhile.
 */
export async function replayFrom(
  db: RedlineDb,
  vendor: { id: number; slug: string; name: string },
  from: CaptureKey,
  limit: number,
  resolve: PlatformResolver = getPlatform,
  bodyOf: (hash: string) => Promise<Uint8Array> = bodyReader(db),
): Promise<ReplayResult | null> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const captures = await readCapturesFrom(db, vendor, from, limit + 1, resolve, bodyOf);
    if (captures.length > limit) return null;
    const started = performance.now();
    const result = await replayCaptures(db, vendor, from, captures, limit, resolve);
    if (result) return { ...result, holdMs: performance.now() - started };
  }
  return null;
}
