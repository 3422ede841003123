import type { RedlineDb } from "@/db/client";
import { getActiveJob, queueJob } from "@/db/operations/derivation-jobs";
import { type CaptureKey, compareCaptureKeys } from "@/db/record/prior-state";
import { continueRun, findRecordedObservation, mayContinueServingRun, placeObservation, recordObservation, splitGoodRunsAround } from "@/db/record/capture-runs";
import { appliedThrough, type CaptureInput, insertCapture, setAppliedThrough, storedDerivedWith } from "@/db/record/record-capture";
import { transact } from "@/db/driver/transaction";
import { writeStatements } from "@/db/record/write-statements";
import { enqueueQuietDegradation, enqueueVersions } from "@/db/notifications/outbox";
import type { CaptureOutcome } from "@/db/schema";
import { getVendorBySlug, setDerivedWith, type VendorRow } from "@/db/settings/vendors";
import { sha256Hex } from "@/lib/canonicalize";
import type { ReadWarning } from "@/lib/derive/observation";
import { quietDegradationFacts, versionFacts } from "@/lib/notify/select-notifications";
import { DERIVATION_KEY, DERIVATION_VERSION, type DerivedWith, isStale } from "@/lib/derive/derivation-version";
import { type CaptureApplication, changesNothing, deriveApplication, type PlatformResolver, recordApplication, touchRunSeen } from "@/scrapers/ingest/apply-capture";
import { type ParseOutcome, parseSnapshot } from "@/scrapers/ingest/parse-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";

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
}

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

/** Which parser versions (and derivation) a vendor's history was derived with. */
export function derivedWithOf(vendor: Pick<VendorRow, "derivedWith">): DerivedWith {
  if (!vendor.derivedWith) return {};
  try {
    const parsed: unknown = JSON.parse(vendor.derivedWith);
    if (parsed && typeof parsed === "object") {
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number"));
    }
  } catch {
    // A corrupt marker only forces a rebuild, which is always safe.
  }
  return {};
}

/**
 * After a parser or derivation upgrade the vendor's stored history is rebuilt in the background
 * (never here: this runs inside polls and webhook requests). A vendor's first capture of a
 * platform just notes the parser that read it.
 */
async function noteDerivation(db: RedlineDb, vendorId: number, platform: Platform, resolve: PlatformResolver, hadHistory: boolean): Promise<void> {
  // Read inside the capture's transaction: the caller's row may be older than the last capture.
  const stored = derivedWithOf({ derivedWith: await storedDerivedWith(db, vendorId) });
  const current = (name: string) => resolve(name)?.parserVersion;
  if (!hadHistory) {
    await setDerivedWith(db, vendorId, { ...stored, [DERIVATION_KEY]: DERIVATION_VERSION, [platform.name]: platform.parserVersion });
    return;
  }
  if (stored[platform.name] === undefined && !isStale(stored, current)) {
    await setDerivedWith(db, vendorId, { ...stored, [platform.name]: platform.parserVersion });
    return;
  }
  if (isStale(stored, current) && !(await getActiveJob(db, vendorId))) await queueJob(db, vendorId, "parser-upgrade", null);
}

/**
 * Record one fetched, pushed or imported snapshot: parse it, then in one transaction record the
 * capture and, when it is the vendor's latest, apply it to the history. A capture recorded before
 * is not recorded again; one older than what was applied is recorded and queued for re-derivation.
 */
export async function ingestSnapshot(db: RedlineDb, input: SnapshotInput, resolvePlatform?: PlatformResolver): Promise<CaptureResult> {
  const vendor = (await getVendorBySlug(db, input.vendor.slug)) ?? input.vendor;
  const hash = sha256Hex(input.body);
  // A capture recorded before reports how it went then: a broken snapshot seen twice is still broken.
  const recorded = await findRecordedObservation(db, vendor.id, input.source, input.observedAt, hash);
  if (recorded) return { captureId: null, duplicate: true, versionsAdded: 0, warnings: [], pending: false, outcome: recorded.outcome, error: recorded.error };
  const parsed = await parseSnapshot(input.platform, input.body, { vendor: vendor.slug, source: input.source, observedAt: input.observedAt });
  return recordParsed(db, { ...input, vendor, hash }, parsed, resolvePlatform);
}

/** Record an already parsed capture (its body kept when given) and apply it: ingestSnapshot's second half. */
export async function recordParsed(
  db: RedlineDb,
  input: Omit<SnapshotInput, "body"> & { body: Uint8Array | null; hash: string },
  parsed: ParseOutcome,
  resolvePlatform?: PlatformResolver,
): Promise<CaptureResult> {
  const { platform, vendor, hash } = input;
  const resolve: PlatformResolver = (name) => (name === platform.name ? platform : (resolvePlatform ?? getPlatform)(name));
  const warnings = parsed.snapshot?.warnings ?? [];
  const base = { captureId: null, duplicate: true, versionsAdded: 0, warnings: [], pending: false };
  return transact(db, async (): Promise<CaptureResult> => {
    const applied = await appliedThrough(db, vendor.id);
    const hadHistory = applied !== null;
    const capture: CaptureInput = {
      vendorId: vendor.id, source: input.source, platform: platform.name, observedAt: input.observedAt, hash, body: input.body,
      outcome: parsed.outcome, error: parsed.error,
      incidentCount: parsed.snapshot ? parsed.snapshot.observations.length + parsed.snapshot.unread.length : null,
      warnings,
    };
    if (parsed.outcome !== "ok") {
      const captureId = await recordObservation(db, capture);
      return captureId === null ? { ...base, outcome: parsed.outcome, error: parsed.error } : { ...base, captureId, duplicate: false, outcome: parsed.outcome, error: parsed.error, warnings };
    }
    const key = { observedAt: input.observedAt, source: input.source, hash };
    // Judged before a split can shorten it: a capture before the last observation of the run applied last is late too.
    const late = applied !== null && compareCaptureKeys(key, await appliedEnd(db, vendor.id, applied)) < 0;
    const placement = await placeObservation(db, capture);
    if (placement.kind === "duplicate") return { ...base, outcome: placement.outcome, error: placement.error };
    const result = { ...base, duplicate: false, outcome: parsed.outcome, error: parsed.error, warnings };
    await noteDerivation(db, vendor.id, platform, resolve, hadHistory);
    let application: CaptureApplication | null = null;
    if (placement.kind === "continues" && !late && isApplied(placement.run, applied) && (await mayContinueServingRun(db, vendor.id, placement.run))) {
      application = await deriveApplication(db, vendor, { key, platform, parsed }, resolve);
      if (application && changesNothing(application)) {
        await continueRun(db, placement.run, input.observedAt);
        await touchRunSeen(db, vendor.id, application, input.observedAt);
        return { ...result, captureId: placement.run.id };
      }
    }
    if (late) await splitGoodRunsAround(db, vendor.id, input.observedAt);
    const captureId = await insertCapture(db, capture);
    if (captureId === null) return { ...base, outcome: parsed.outcome, error: parsed.error };
    if (late) await queueJob(db, vendor.id, "late-capture", key);
    if (late || (await getActiveJob(db, vendor.id))?.status === "swapping") return { ...result, captureId, pending: true };
    application ??= await deriveApplication(db, vendor, { key, platform, parsed }, resolve);
    const recorded = application ? await recordApplication(db, vendor.id, captureId, key, application) : null;
    const versionsAdded = recorded?.versions ?? 0;
    if (input.notify && application && versionsAdded > 0) {
      await enqueueVersions(db, vendor.id, versionFacts(vendor.slug, application.derivation), new Date().toISOString());
    }
    // Only when it starts: its end, like the replays of a rebuild, notifies no one.
    if (input.notify && recorded?.quietStarted) {
      const { from, components } = recorded.quietStarted;
      await enqueueQuietDegradation(db, vendor.id, { from, facts: quietDegradationFacts(vendor.slug, components) }, new Date().toISOString());
    }
    await setAppliedThrough(db, vendor.id, key);
    return { ...result, captureId, versionsAdded };
  }, { immediate: true });
}

/** The last observation of the capture applied last (it may be a run). */
async function appliedEnd(db: RedlineDb, vendorId: number, applied: CaptureKey): Promise<CaptureKey> {
  const run = await writeStatements(db).captureByKey.get(vendorId, applied.source, applied.observedAt, applied.hash);
  return { ...applied, observedAt: run?.lastObservedAt ?? applied.observedAt };
}

/** Whether the run is the capture applied last: only then can a good snapshot continue it. */
function isApplied(run: { source: string; observedAt: string; hash: string }, applied: CaptureKey | null): boolean {
  return applied !== null && compareCaptureKeys(run, applied) === 0;
}
