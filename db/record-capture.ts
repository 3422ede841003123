import { gunzipSync, gzipSync } from "node:zlib";
import { and, eq, gt, inArray } from "drizzle-orm";
import type { RedlineDb, RedlineExecutor } from "@/db/client";
import { writeStatements, type WriteStatements } from "@/db/write-statements";
import { applySnapshot } from "@/db/apply-snapshot";
import { captureBodies, captures, incidents, incidentVersions, type CaptureOutcome, vendors, versionKinds } from "@/db/schema";
import type { VendorRow } from "@/db/vendors";
import type { CarryRule } from "@/lib/carried-fields";
import type { Incident } from "@/lib/incident";
import type { PresenceRule } from "@/lib/presence";

export interface CaptureInput {
  vendor: VendorRow;
  /** Where the snapshot came from: an endpoint URL, or the file name for imports. */
  source: string;
  platform: string;
  presence: PresenceRule;
  carry?: CarryRule;
  observedAt: string;
  /** sha256 of the raw body (of the empty body when there is none). */
  hash: string;
  /** The raw body, kept for ok and invalid captures so history can be re-derived. */
  body: Uint8Array | null;
  /** The body's size when it is not passed (an unchanged body is not stored again). */
  size?: number | null;
  outcome: CaptureOutcome;
  error: string | null;
  /** Parsed incidents, for ok captures. */
  incidents: readonly Incident[] | null;
}

export interface CaptureResult {
  captureId: number | null;
  duplicate: boolean;
  outcome: CaptureOutcome;
  /** Why the capture failed or is invalid. */
  error: string | null;
  versionsAdded: number;
  /** The capture is older than recorded history: the vendor is marked for re-derivation. */
  outOfOrder: boolean;
}

/** Whether exactly this capture was already recorded (same vendor, source, time and body). */
/** The capture already recorded with this identity: how it went, so a repeat reports the same. */
export function findCapture(db: RedlineDb, vendorId: number, source: string, observedAt: string, hash: string): { outcome: CaptureOutcome; error: string | null } | undefined {
  const row = writeStatements(db.$client).captureExists.get(vendorId, source, observedAt, hash);
  return row ? { outcome: row.outcome as CaptureOutcome, error: row.error } : undefined;
}

function storeBody(st: WriteStatements, hash: string, body: Uint8Array): void {
  if (st.bodyExists.get(hash)) return;
  // Level 1: history bodies are written once and rarely read; speed matters more than ratio.
  st.insertBody.run(hash, body.byteLength, gzipSync(body, { level: 1 }));
}

/**
 * Record one capture and every version it implies, in one transaction: a crash leaves
 * either all of it or none. Recording the same capture again adds nothing.
 */
export function recordCapture(db: RedlineDb, input: CaptureInput): CaptureResult {
  const st = writeStatements(db.$client);
  const record = db.$client.transaction((): CaptureResult => {
    const { vendor } = input;
    if (st.captureExists.get(vendor.id, input.source, input.observedAt, input.hash)) {
      return { captureId: null, duplicate: true, outcome: input.outcome, error: input.error, versionsAdded: 0, outOfOrder: false };
    }
    const keepBody = input.body !== null && input.body.byteLength > 0 && (input.outcome === "ok" || input.outcome === "invalid");
    if (keepBody && input.body) storeBody(st, input.hash, input.body);
    const latest = input.outcome === "ok" ? (st.latestApplied.get(vendor.id)?.at ?? null) : null;
    const outOfOrder = latest !== null && input.observedAt < latest;
    const inserted = st.insertCapture.get({
      vendorId: vendor.id,
      source: input.source,
      platform: input.platform,
      observedAt: input.observedAt,
      outcome: input.outcome,
      error: input.error,
      size: input.body?.byteLength ?? input.size ?? null,
      hash: input.hash,
      bodyHash: keepBody ? input.hash : null,
      incidentCount: input.incidents?.length ?? null,
      recordedAt: new Date().toISOString(),
    });
    if (!inserted) throw new Error(`store: unable to insert capture of ${vendor.slug}`);
    const captureId = inserted.id;
    if (input.outcome !== "ok" || input.incidents === null) {
      return { captureId, duplicate: false, outcome: input.outcome, error: input.error, versionsAdded: 0, outOfOrder: false };
    }
    if (outOfOrder) {
      st.markNeedsRederive.run(vendor.id);
      return { captureId, duplicate: false, outcome: input.outcome, error: input.error, versionsAdded: 0, outOfOrder: true };
    }
    const versionsAdded = applySnapshot(
      db,
      { vendor, captureId, source: input.source, observedAt: input.observedAt, presence: input.presence, carry: input.carry },
      input.incidents,
    );
    if (versionsAdded > 0) st.setCaptureVersions.run(versionsAdded, captureId);
    return { captureId, duplicate: false, outcome: input.outcome, error: input.error, versionsAdded, outOfOrder: false };
  });
  return record.immediate();
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
  carry?: CarryRule;
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
  return db.$client.transaction(() => {
    const lastId = replayed.reduce((m, r) => Math.max(m, r.capture.id), 0);
    const newer = db.select({ id: captures.id }).from(captures).where(and(eq(captures.vendorId, vendor.id), gt(captures.id, lastId))).get();
    if (newer) throw new ReplayRaceError(`store: vendor ${vendor.slug} received a capture during re-derivation; retry`);
    const versionIds = db.select({ id: incidentVersions.id }).from(incidentVersions).where(eq(incidentVersions.vendorId, vendor.id));
    db.delete(versionKinds).where(inArray(versionKinds.versionId, versionIds)).run();
    db.delete(incidentVersions).where(eq(incidentVersions.vendorId, vendor.id)).run();
    db.delete(incidents).where(eq(incidents.vendorId, vendor.id)).run();
    let total = 0;
    for (const r of replayed) {
      let versionsAdded = 0;
      if (r.outcome === "ok" && r.incidents !== null) {
        versionsAdded = applySnapshot(
          db,
          { vendor, captureId: r.capture.id, source: r.capture.source, observedAt: r.capture.observedAt, presence: r.presence, carry: r.carry },
          r.incidents,
        );
      }
      total += versionsAdded;
      db.update(captures)
        .set({ outcome: r.outcome, error: r.error, incidentCount: r.incidents?.length ?? null, versionCount: versionsAdded })
        .where(eq(captures.id, r.capture.id))
        .run();
    }
    db.update(vendors).set({ needsRederive: false, derivedWith: JSON.stringify(derivedWith) }).where(eq(vendors.id, vendor.id)).run();
    return total;
  }).immediate();
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
