import { gunzipSync, gzipSync } from "node:zlib";
import { and, eq, gt, inArray, max } from "drizzle-orm";
import type { RedlineDb, RedlineExecutor } from "@/db/client";
import { applySnapshot } from "@/db/apply-snapshot";
import { captureBodies, captures, incidents, incidentVersions, type CaptureOutcome, vendors, versionKinds } from "@/db/schema";
import type { VendorRow } from "@/db/vendors";
import type { Incident } from "@/lib/incident";
import type { PresenceRule } from "@/lib/presence";

export interface CaptureInput {
  vendor: VendorRow;
  /** Where the snapshot came from: an endpoint URL, or the file name for imports. */
  source: string;
  platform: string;
  presence: PresenceRule;
  observedAt: string;
  /** sha256 of the raw body (of the empty body when there is none). */
  hash: string;
  /** The raw body, kept for ok and invalid captures so history can be re-derived. */
  body: Uint8Array | null;
  outcome: CaptureOutcome;
  error: string | null;
  /** Parsed incidents, for ok captures. */
  incidents: readonly Incident[] | null;
}

export interface CaptureResult {
  captureId: number | null;
  duplicate: boolean;
  outcome: CaptureOutcome;
  versionsAdded: number;
  /** The capture is older than recorded history: the vendor is marked for re-derivation. */
  outOfOrder: boolean;
}

/** Whether exactly this capture was already recorded (same vendor, source, time and body). */
export function captureExists(db: RedlineExecutor, vendorId: number, source: string, observedAt: string, hash: string): boolean {
  return (
    db
      .select({ id: captures.id })
      .from(captures)
      .where(
        and(eq(captures.vendorId, vendorId), eq(captures.source, source), eq(captures.observedAt, observedAt), eq(captures.hash, hash)),
      )
      .get() !== undefined
  );
}

function storeBody(db: RedlineExecutor, hash: string, body: Uint8Array): void {
  const exists = db.select({ hash: captureBodies.hash }).from(captureBodies).where(eq(captureBodies.hash, hash)).get();
  if (exists) return;
  // Level 1: history bodies are written once and rarely read; speed matters more than ratio.
  const packed = gzipSync(body, { level: 1 });
  db.insert(captureBodies).values({ hash, encoding: "gzip", size: body.byteLength, body: packed }).run();
}

export function latestAppliedAt(db: RedlineExecutor, vendorId: number): string | null {
  return (
    db
      .select({ at: max(captures.observedAt) })
      .from(captures)
      .where(and(eq(captures.vendorId, vendorId), eq(captures.outcome, "ok")))
      .get()?.at ?? null
  );
}

/**
 * Record one capture and every version it implies, in one transaction: a crash leaves
 * either all of it or none. Recording the same capture again adds nothing.
 */
export function recordCapture(db: RedlineExecutor, input: CaptureInput): CaptureResult {
  return db.transaction((tx) => {
    const { vendor } = input;
    if (captureExists(tx, vendor.id, input.source, input.observedAt, input.hash)) {
      return { captureId: null, duplicate: true, outcome: input.outcome, versionsAdded: 0, outOfOrder: false };
    }
    const keepBody = input.body !== null && input.body.byteLength > 0 && (input.outcome === "ok" || input.outcome === "invalid");
    if (keepBody && input.body) storeBody(tx, input.hash, input.body);
    const latest = input.outcome === "ok" ? latestAppliedAt(tx, vendor.id) : null;
    const outOfOrder = latest !== null && input.observedAt < latest;
    const captureId = tx
      .insert(captures)
      .values({
        vendorId: vendor.id,
        source: input.source,
        platform: input.platform,
        observedAt: input.observedAt,
        outcome: input.outcome,
        error: input.error,
        size: input.body?.byteLength ?? null,
        hash: input.hash,
        bodyHash: keepBody ? input.hash : null,
        incidentCount: input.incidents?.length ?? null,
        recordedAt: new Date().toISOString(),
      })
      .returning({ id: captures.id })
      .get().id;
    if (input.outcome !== "ok" || input.incidents === null) {
      return { captureId, duplicate: false, outcome: input.outcome, versionsAdded: 0, outOfOrder: false };
    }
    if (outOfOrder) {
      tx.update(vendors).set({ needsRederive: true }).where(eq(vendors.id, vendor.id)).run();
      return { captureId, duplicate: false, outcome: input.outcome, versionsAdded: 0, outOfOrder: true };
    }
    const versionsAdded = applySnapshot(
      tx,
      { vendor, captureId, source: input.source, observedAt: input.observedAt, presence: input.presence },
      input.incidents,
    );
    if (versionsAdded > 0) tx.update(captures).set({ versionCount: versionsAdded }).where(eq(captures.id, captureId)).run();
    return { captureId, duplicate: false, outcome: input.outcome, versionsAdded, outOfOrder: false };
  });
}

export interface StoredCapture {
  id: number;
  source: string;
  platform: string;
  observedAt: string;
  outcome: CaptureOutcome;
  error: string | null;
  bodyHash: string | null;
}

/** A vendor's captures in the order history is built from them. */
export function listCapturesForReplay(db: RedlineExecutor, vendorId: number): StoredCapture[] {
  return db
    .select({
      id: captures.id,
      source: captures.source,
      platform: captures.platform,
      observedAt: captures.observedAt,
      outcome: captures.outcome,
      error: captures.error,
      bodyHash: captures.bodyHash,
    })
    .from(captures)
    .where(eq(captures.vendorId, vendorId))
    .orderBy(captures.observedAt, captures.id)
    .all();
}

export interface ReplayedCapture {
  capture: StoredCapture;
  presence: PresenceRule;
  outcome: CaptureOutcome;
  error: string | null;
  incidents: readonly Incident[] | null;
}

export class ReplayRaceError extends Error {
  readonly kind = "replay-race";
}

/**
 * Rebuild a vendor's whole history from re-parsed captures, in one transaction. The old
 * derived versions are replaced, not appended to: a parser fix never looks like a vendor edit.
 */
export function replaceHistory(
  db: RedlineDb,
  vendor: VendorRow,
  replayed: readonly ReplayedCapture[],
  derivedWith: Record<string, number>,
): number {
  return db.transaction((tx) => {
    const lastId = replayed.reduce((m, r) => Math.max(m, r.capture.id), 0);
    const newer = tx.select({ id: captures.id }).from(captures).where(and(eq(captures.vendorId, vendor.id), gt(captures.id, lastId))).get();
    if (newer) throw new ReplayRaceError(`store: vendor ${vendor.slug} received a capture during re-derivation; retry`);
    const versionIds = tx.select({ id: incidentVersions.id }).from(incidentVersions).where(eq(incidentVersions.vendorId, vendor.id));
    tx.delete(versionKinds).where(inArray(versionKinds.versionId, versionIds)).run();
    tx.delete(incidentVersions).where(eq(incidentVersions.vendorId, vendor.id)).run();
    tx.delete(incidents).where(eq(incidents.vendorId, vendor.id)).run();
    let total = 0;
    for (const r of replayed) {
      let versionsAdded = 0;
      if (r.outcome === "ok" && r.incidents !== null) {
        versionsAdded = applySnapshot(
          tx,
          { vendor, captureId: r.capture.id, source: r.capture.source, observedAt: r.capture.observedAt, presence: r.presence },
          r.incidents,
        );
      }
      total += versionsAdded;
      tx.update(captures)
        .set({ outcome: r.outcome, error: r.error, incidentCount: r.incidents?.length ?? null, versionCount: versionsAdded })
        .where(eq(captures.id, r.capture.id))
        .run();
    }
    tx.update(vendors).set({ needsRederive: false, derivedWith: JSON.stringify(derivedWith) }).where(eq(vendors.id, vendor.id)).run();
    return total;
  });
}

/** The raw body of a kept capture, decompressed. */
export function readCaptureBody(db: RedlineExecutor, hash: string): Buffer {
  const row = db.select().from(captureBodies).where(eq(captureBodies.hash, hash)).get();
  if (!row) throw new Error(`store: capture body ${hash} is missing`);
  return gunzipSync(row.body);
}

/** Remember which parser version derived a platform's captures for this vendor. */
export function setDerivedWith(db: RedlineExecutor, vendorId: number, derivedWith: Record<string, number>): void {
  db.update(vendors).set({ derivedWith: JSON.stringify(derivedWith) }).where(eq(vendors.id, vendorId)).run();
}
