import { restoreBody } from "@/db/history/capture-bodies";
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

export class CaptureRestoreError extends Error {
  readonly kind = "capture-restore";
}

export interface RestoredCapture {
  id: number;
  observedAt: string;
  /** The sha256 recorded with the capture, which the body was checked against. */
  hash: string;
  body: Buffer;
}

const statements = statementsFor((c: Connection) => ({
  capture: c.prepare<[number], { id: number; observedAt: string; hash: string; bodyHash: string | null }>(
    `SELECT c.id, c.observed_at AS observedAt, c.hash, (SELECT ${c.dialect.history.hexOf("b.hash")} FROM capture_bodies b WHERE b.id = c.body_id) AS bodyHash
     FROM captures c WHERE c.id = ?`,
  ),
  stored: c.prepare<[number], { id: number }>(
    "SELECT id FROM captures WHERE vendor_id = ? AND body_id IS NOT NULL ORDER BY observed_at, source, hash",
  ),
}));

/**
 * A capture's raw body as it was fetched or imported, checked against the hash recorded with it.
 * Throws when the capture is unknown, kept no body, or its stored body does not match.
 */
export async function restoreCapture(db: RedlineDb, captureId: number): Promise<RestoredCapture> {
  const row = await statements(db).capture.get(captureId);
  if (!row) throw new CaptureRestoreError(`store: no capture ${captureId}`);
  if (row.bodyHash === null) throw new CaptureRestoreError(`store: capture ${captureId} kept no body`);
  // restoreBody checks the body against its own hash; a capture keeps the body of its own hash.
  if (row.bodyHash !== row.hash) throw new CaptureRestoreError(`store: capture ${captureId} points at body ${row.bodyHash}, recorded ${row.hash}`);
  let body: Buffer;
  try {
    body = await restoreBody(db, row.bodyHash);
  } catch (error) {
    throw new CaptureRestoreError(`store: unable to restore capture ${captureId}: ${(error as Error).message}`, { cause: error });
  }
  return { id: row.id, observedAt: row.observedAt, hash: row.hash, body };
}

/** The vendor's captures that kept a raw body, in capture order: what restoreCapture can give back. */
export async function listStoredCaptureIds(db: RedlineDb, vendorId: number): Promise<number[]> {
  return (await statements(db).stored.all(vendorId)).map((r) => r.id);
}
