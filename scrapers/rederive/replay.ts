import type { RedlineDb } from "@/db/client";
import { rewindHistory } from "@/db/history/rewind";
import type { CaptureKey } from "@/db/record/prior-state";
import { bodyReader } from "@/db/history/capture-bodies";
import { transact } from "@/db/driver/transaction";
import { writeStatements } from "@/db/record/write-statements";
import { applyCapture, type PlatformResolver, readCapturesFrom, saveCaptureReading } from "@/scrapers/ingest/apply-capture";
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
  const st = writeStatements(db);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    const captures = await readCapturesFrom(db, vendor, from, limit + 1, resolve, bodyOf);
    if (captures.length > limit) return null;
    const started = performance.now();
    const result = await transact(db, async (): Promise<Omit<ReplayResult, "holdMs"> | null> => {
      const now = await st.capturesFrom.all(vendor.id, from.observedAt, from.source, from.hash, limit + 1);
      // A run continued meanwhile is read again too: its last observation is part of what is applied.
      if (now.length !== captures.length || now.some((r, i) => captures[i]?.captureId !== r.id || captures[i]?.lastObservedAt !== r.lastObservedAt)) return null;
      await rewindHistory(db, vendor.id, from);
      let versions = 0;
      for (const capture of captures) {
        await saveCaptureReading(db, capture);
        versions += await applyCapture(db, vendor, capture, resolve);
      }
      return { captures: captures.length, versions };
    }, { immediate: true });
    if (result) return { ...result, holdMs: performance.now() - started };
  }
  return null;
}
