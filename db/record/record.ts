import type { Nullable, RedlineDb } from "@/db/driver/database";
import { transact } from "@/db/driver/transaction";
import { enqueueQuietDegradation, enqueueVersions } from "@/db/notifications/outbox";
import { queueJob } from "@/db/operations/derivation-jobs";
import { saveSource, type SourceRow } from "@/db/operations/poll-state";
import { rewindHistory } from "@/db/history/rewind";
import { applyCapture, type CaptureApplication, type CaptureReading, changesNothing, deriveApplication, type PlatformResolver, type ReadCapture, type ReadingPlatform, recordApplication, saveCaptureReading, touchRunSeen } from "@/db/record/apply";
import { continueRun, splitGoodRunsAround, splitRun } from "@/db/record/capture-runs";
import { type CaptureInput, capturedDerived, insertCapture, setAppliedThrough } from "@/db/record/record-capture";
import { type CaptureRow, writeStatements } from "@/db/record/write-statements";
import { setDerivedWith } from "@/db/settings/vendors";
import type { CaptureOutcome } from "@/db/schema";
import type { CaptureKey } from "@/lib/derive/capture-key";
import { continuesUnapplied, derivationNote, isApplied, isLate, mayContinueServingRun, parseDerivedWith, type Placement, placeObservation, recordedBefore, type RunFound, type StandingsRead } from "@/lib/derive/capture-place";
import type { ReadWarning } from "@/lib/derive/observation";
import { quietDegradationFacts, versionFacts } from "@/lib/notify/select-notifications";

/**
 * The record stage: one call per capture, owning its transaction. It loads what the decisions
 * need (the vendor's applied capture, the source's run, the job under way), places the capture
 * (lib/derive/capture-place.ts, pure), derives it against the prior records it concerns
 * (lib/derive, pure) and writes the outcome. Polls, imports, pushed webhooks, replays and
 * rebuilds all record through here.
 */

export interface CaptureResult {
  captureId: number | null;
  duplicate: boolean;
  outcome: CaptureOutcome;
  /** Why the capture failed or is invalid. */
  error: string | null;
  versionsAdded: number;
  /** What could not be read in an otherwise good snapshot. */
  warnings: readonly ReadWarning[];
  /**
   * Recorded but not applied yet: it arrived after a later capture (it is applied in order by a
   * background re-derivation), or while the vendor's history was being swapped for a rebuilt one.
   */
  pending: boolean;
}

/** One fetched, pushed or imported snapshot, read, to record. */
export interface CaptureToRecord {
  vendor: { id: number; slug: string; name: string };
  platform: ReadingPlatform;
  source: string;
  observedAt: string;
  hash: string;
  /** The raw body, kept for good and invalid captures so history can be derived again; null when it was not kept. */
  body: Uint8Array | null;
  parsed: CaptureReading;
  /** Whether the versions it adds notify subscriptions. */
  notify?: boolean;
}

/** What placing a capture needs, read in its transaction. */
interface CaptureContext {
  applied: CaptureKey | null;
  /** The last observation of the applied capture's run. */
  appliedLastObservedAt: string | null;
  found: RunFound<CaptureRow> | null;
  read: StandingsRead | undefined;
  job: { status: string } | undefined;
  /** The vendor's derivation marker as stored now. */
  derivedWith: string | null;
  /** Whether the capture's source is registered. */
  sourceKnown: boolean;
}

async function loadContext(db: RedlineDb, vendorId: number, source: string, observedAt: string): Promise<CaptureContext> {
  const row = await writeStatements(db).captureContext.get({ vendorId, source, at: observedAt });
  const applied = row?.appliedObservedAt && row.appliedSource && row.appliedHash ? { observedAt: row.appliedObservedAt, source: row.appliedSource, hash: row.appliedHash } : null;
  return {
    applied,
    appliedLastObservedAt: row?.appliedLastObservedAt ?? null,
    found: row ? runFound(row) : null,
    read: row ? { at: row.standingsReadAt, by: row.standingsReadBy } : undefined,
    job: row?.jobStatus ? { status: row.jobStatus } : undefined,
    derivedWith: row?.derivedWith ?? null,
    sourceKnown: row?.sourceKnown === 1,
  };
}

/** The source's run at or before the capture, as the context read it (its columns null when there is none). */
function runFound(row: Nullable<CaptureRow & { latest: number }>): RunFound<CaptureRow> | null {
  const { id, vendorId, source, platform, observedAt, outcome, error, hash, bodyHash, lastObservedAt, observations, latest } = row;
  if (id === null || vendorId === null || source === null || platform === null || observedAt === null || outcome === null || hash === null || lastObservedAt === null || observations === null) return null;
  return { run: { id, vendorId, source, platform, observedAt, outcome, error, hash, bodyHash, lastObservedAt, observations }, latest: latest === 1 };
}

/**
 * Record one capture and, when it is the vendor's latest, apply it to the history, in one
 * transaction. A capture recorded before is not recorded again; one older than what was applied
 * is recorded and queued for re-derivation; one that changes nothing continues its source's run.
 */
export async function recordCapture(db: RedlineDb, input: CaptureToRecord, resolvePlatform: PlatformResolver): Promise<CaptureResult> {
  const { platform, vendor, parsed } = input;
  const resolve: PlatformResolver = (name) => (name === platform.name ? platform : resolvePlatform(name));
  const warnings = parsed.snapshot?.warnings ?? [];
  const base = { captureId: null, duplicate: true, versionsAdded: 0, warnings: [], pending: false };
  const capture: CaptureInput = {
    vendorId: vendor.id, source: input.source, platform: platform.name, observedAt: input.observedAt, hash: input.hash, body: input.body,
    outcome: parsed.outcome, error: parsed.error,
    incidentCount: parsed.snapshot ? parsed.snapshot.observations.length + parsed.snapshot.unread.length : null,
    warnings,
  };
  return transact(db, async (): Promise<CaptureResult> => {
    const context = await loadContext(db, vendor.id, input.source, input.observedAt);
    const placement = placeObservation(context.found, capture);
    if (placement.kind === "duplicate") return { ...base, outcome: placement.outcome, error: placement.error };
    if (parsed.outcome !== "ok") {
      const captureId = await recordUnapplied(db, capture, placement, context);
      return captureId === null ? { ...base, outcome: parsed.outcome, error: parsed.error } : { ...base, captureId, duplicate: false, outcome: parsed.outcome, error: parsed.error, warnings };
    }
    const key = { observedAt: input.observedAt, source: input.source, hash: input.hash };
    const late = isLate(context.applied, context.appliedLastObservedAt, key);
    if (placement.kind === "new" && placement.split) await splitRun(db, placement.split);
    const result = { ...base, duplicate: false, outcome: parsed.outcome, error: parsed.error, warnings };
    await noteDerivation(db, vendor.id, platform, resolve, context);
    let application: CaptureApplication | null = null;
    if (placement.kind === "continues" && !late && isApplied(placement.run, context.applied) && mayContinueServingRun(placement.run, context.read, context.job?.status)) {
      application = await deriveApplication(db, vendor, { key, platform, parsed }, resolve);
      if (application && changesNothing(application)) {
        await continueRun(db, placement.run, input.observedAt);
        await touchRunSeen(db, vendor.id, application, input.observedAt);
        return { ...result, captureId: placement.run.id };
      }
    }
    if (late) await splitGoodRunsAround(db, vendor.id, input.observedAt);
    const pending = late || context.job?.status === "swapping";
    // Derived before its row is written (deriving reads nothing the row changes), so the row says what it added.
    if (!pending) application ??= await deriveApplication(db, vendor, { key, platform, parsed }, resolve);
    const captureId = await insertCapture(db, { ...capture, sourceKnown: context.sourceKnown, derived: application && !pending ? capturedDerived(application.derivation) : undefined });
    if (captureId === null) return { ...base, outcome: parsed.outcome, error: parsed.error };
    if (late) await queueJob(db, vendor.id, "late-capture", key);
    if (pending) return { ...result, captureId, pending: true };
    const recorded = application ? await recordApplication(db, vendor.id, captureId, key, application, { rowDerived: true }) : null;
    const versionsAdded = recorded?.versions ?? 0;
    if (input.notify && application && versionsAdded > 0) {
      await enqueueVersions(db, vendor.id, versionFacts(vendor.slug, application.derivation), new Date().toISOString());
    }
    // Only when it starts: its end, like the replays of a rebuild, notifies no one.
    if (input.notify && recorded?.quietStarted) {
      const { from, components } = recorded.quietStarted;
      await enqueueQuietDegradation(db, vendor.id, { from, facts: quietDegradationFacts(vendor.slug, components) }, new Date().toISOString());
    }
    await setAppliedThrough(db, vendor.id, key, recorded?.readStandings);
    return { ...result, captureId, versionsAdded };
  }, { immediate: true });
}

/** An observation that is not applied (not-modified, failed, invalid): it continues its source's run when it can, else gets a row. */
async function recordUnapplied(db: RedlineDb, capture: CaptureInput, placement: Placement<CaptureRow>, context: CaptureContext): Promise<number | null> {
  if (placement.kind === "continues" && continuesUnapplied(placement.run, context.read, context.job?.status)) {
    await continueRun(db, placement.run, capture.observedAt);
    return placement.run.id;
  }
  if (placement.kind === "new" && placement.split) await splitRun(db, placement.split);
  return insertCapture(db, { ...capture, sourceKnown: context.sourceKnown });
}

/** Mark the parsers a first capture was read with, or queue the rebuild an upgrade calls for (never here: this runs inside polls and webhook requests). */
async function noteDerivation(db: RedlineDb, vendorId: number, platform: ReadingPlatform, resolve: PlatformResolver, context: CaptureContext): Promise<void> {
  // Read inside the capture's transaction: the caller's row may be older than the last capture.
  const stored = parseDerivedWith(context.derivedWith);
  const note = derivationNote(stored, platform, (name) => resolve(name)?.parserVersion, context.applied !== null, context.job !== undefined);
  if (note?.kind === "mark") await setDerivedWith(db, vendorId, note.derivedWith);
  else if (note?.kind === "rebuild") await queueJob(db, vendorId, "parser-upgrade", null);
}

/** How a capture recorded before went, when this observation of this content is already recorded (read before parsing it again). */
export async function findRecordedObservation(db: RedlineDb, vendorId: number, source: string, observedAt: string, hash: string): Promise<{ outcome: CaptureOutcome; error: string | null } | undefined> {
  const run = await writeStatements(db).recordedAtOrBefore.get(vendorId, source, observedAt, hash);
  const exact = run && run.observedAt === observedAt && run.hash === hash ? run : undefined;
  return recordedBefore(exact, run && !exact ? { run, latest: false } : null, { observedAt, hash });
}

/** An observation not applied to the history, in its own transaction: the id of its row or run, null when it was recorded before. */
export async function recordObservation(db: RedlineDb, capture: CaptureInput): Promise<number | null> {
  return transact(db, () => placeUnapplied(db, capture), { immediate: true });
}

async function placeUnapplied(db: RedlineDb, capture: CaptureInput): Promise<number | null> {
  const context = await loadContext(db, capture.vendorId, capture.source, capture.observedAt);
  const placement = placeObservation(context.found, capture);
  return placement.kind === "duplicate" ? null : recordUnapplied(db, capture, placement, context);
}

/** A fetch that is not parsed (failed, or the body last received), with what the source's next conditional GET needs. */
export interface UnparsedFetch {
  capture: CaptureInput;
  source: Omit<SourceRow, "id">;
}

/**
 * Record fetches that are not parsed, in the order given, in one transaction: a vendor's round of
 * unchanged endpoints costs one commit.
 */
export async function recordFetches(db: RedlineDb, fetches: readonly UnparsedFetch[]): Promise<void> {
  if (fetches.length === 0) return;
  await transact(db, async () => {
    for (const { capture, source } of fetches) {
      await placeUnapplied(db, capture);
      await saveSource(db, source);
    }
  }, { immediate: true });
}

/**
 * Replay stored captures from `from` on, read again: the history from there is rewound and the
 * captures applied in order, in one transaction, unless the captures changed since they were read
 * (a run continued, a capture arrived): then nothing is written and null is returned.
 */
export async function replayCaptures(
  db: RedlineDb,
  vendor: { id: number; name: string },
  from: CaptureKey,
  captures: readonly ReadCapture[],
  limit: number,
  resolve: PlatformResolver,
): Promise<{ captures: number; versions: number } | null> {
  return transact(db, async () => {
    const now = await writeStatements(db).capturesFrom.all(vendor.id, from.observedAt, from.source, from.hash, limit + 1);
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
}

/** Apply one stored capture, read again, in a transaction of its own (a rebuild's scratch applies them one by one). */
export async function applyStoredCapture(db: RedlineDb, vendor: { id: number; name: string }, capture: ReadCapture, resolve: PlatformResolver): Promise<void> {
  await transact(db, async () => {
    await saveCaptureReading(db, capture);
    await applyCapture(db, vendor, capture, resolve);
  }, { immediate: true });
}

/** Undo what was derived from `from` on, in a transaction of its own (a rebuild's scratch, when a capture arrived late). */
export async function rewindFrom(db: RedlineDb, vendorId: number, from: CaptureKey): Promise<void> {
  await transact(db, () => rewindHistory(db, vendorId, from), { immediate: true });
}
