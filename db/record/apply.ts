import type { RedlineDb } from "@/db/driver/database";
import { loadComponentPrior, loadOpenIncidents, recordComponentStep } from "@/db/record/component-states";
import { type CaptureKey, loadPriorState, type PriorState } from "@/db/record/prior-state";
import { recordDerivation, setAppliedThrough, warningsJson } from "@/db/record/record-capture";
import { writeStatements } from "@/db/record/write-statements";
import type { CaptureOutcome } from "@/db/schema";
import type { ComponentGrid, ComponentKnowledge } from "@/lib/components/component-grid";
import { isDegradedStatus } from "@/lib/components/component-status";
import { deriveComponentStep, statesAfter } from "@/lib/components/component-step";
import { directoryOf, type NamedComponent, nameComponent } from "@/lib/components/quiet-degradation";
import { type CaptureDerivation, deriveCapture, prepareObservations } from "@/lib/derive/derive-capture";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import type { SourceProfile } from "@/lib/derive/source-profile";
import type { Component } from "@/lib/incident";

/**
 * Applying a read capture to a vendor's history: load the prior records it concerns, derive
 * (lib/derive, pure), record what changed. Runs inside the record stage's transaction
 * (db/record/record.ts).
 */

/** The platform that read a capture, as recording needs it (a scrapers/platforms Platform is one). */
export interface ReadingPlatform {
  name: string;
  parserVersion: number;
  profile: SourceProfile;
}

/** The vendor's platforms by name, for the standing of its other sources and for parser versions. */
export type PlatformResolver = (name: string) => ReadingPlatform | undefined;

/** How a snapshot read: its outcome, why it failed, and what it says when good. */
export interface CaptureReading {
  outcome: CaptureOutcome;
  error: string | null;
  snapshot: ParsedSnapshot | null;
}

/** A recorded capture, read with today's parser: what applying it needs. */
export interface ReadCapture {
  captureId: number;
  key: CaptureKey;
  platform: ReadingPlatform;
  parsed: CaptureReading;
  /** The last observation of the capture's run (its first is key.observedAt). */
  lastObservedAt: string;
}

/** What deriving a good capture gave, and what it was derived from. */
export interface CaptureApplication {
  prior: PriorState;
  derivation: CaptureDerivation;
  /** What the capture says of the vendor's components. */
  components: CaptureComponents;
}

export interface CaptureComponents {
  knowledge: ComponentKnowledge | undefined;
  grid: ComponentGrid | undefined;
  /** Every component its incidents name. */
  named: Component[];
}

export class DerivationError extends Error {
  readonly kind = "derivation";
}

/** Derive a good capture against the vendor's history as it stands: nothing is written. Null for other outcomes. */
export async function deriveApplication(db: RedlineDb, vendor: { id: number; name: string }, capture: Omit<ReadCapture, "captureId" | "lastObservedAt">, resolve: PlatformResolver): Promise<CaptureApplication | null> {
  const { parsed, platform, key } = capture;
  if (parsed.outcome !== "ok" || parsed.snapshot === null) return null;
  const { profile } = platform;
  const observations = prepareObservations(parsed.snapshot);
  const prior = await loadPriorState(db, vendor.id, key, profile.presence, observations, (name) => resolve(name)?.profile.presence);
  const derivation = deriveCapture({
    vendorName: vendor.name,
    source: key.source,
    observedAt: key.observedAt,
    profile,
    observations,
    unread: parsed.snapshot.unread,
    ...prior,
  });
  const named = new Map<string, Component>();
  for (const o of observations) for (const c of o.incident.components) if (!named.has(c.id)) named.set(c.id, c);
  return { prior, derivation, components: { knowledge: profile.components, grid: parsed.snapshot.grid, named: [...named.values()] } };
}

/**
 * Whether applying it only says when its incidents were last seen: no record was even looked at
 * (so no other source's standing mattered) and none changed. Such a capture may continue a run.
 */
export function changesNothing(application: CaptureApplication): boolean {
  return application.prior.records.size === 0 && application.derivation.incidents.length === 0;
}

/** A quiet degradation a capture started, its components named as the capture left them. */
export interface QuietStart {
  from: string;
  components: NamedComponent[];
}

export interface RecordedApplication {
  versions: number;
  /** Whether applying it read the standing of the vendor's other sources (setAppliedThrough notes it). */
  readStandings: boolean;
  quietStarted: QuietStart | null;
}

/** Record a derived capture: the versions it added and the quiet degradation it started (`rowDerived`: its row says what it added already). Runs inside the caller's transaction. */
export async function recordApplication(
  db: RedlineDb, vendorId: number, captureId: number, key: CaptureKey, application: CaptureApplication, options: { rowDerived?: boolean } = {},
): Promise<RecordedApplication> {
  const versions = await recordDerivation(db, { vendorId, captureId, source: key.source, observedAt: key.observedAt }, application.derivation, application.prior, options);
  const quietStarted = await applyComponents(db, { vendorId, captureId, observedAt: key.observedAt, source: key.source }, application.components);
  return { versions, readStandings: !changesNothing(application), quietStarted };
}

/**
 * The capture's component step, once its incidents are recorded: the grid it states (or the states
 * its incidents imply) against the components' open runs, and whether a quiet degradation starts
 * or ends now that the vendor's open incidents are known.
 */
async function applyComponents(db: RedlineDb, ctx: { vendorId: number; captureId: number; observedAt: string; source: string }, components: CaptureComponents): Promise<QuietStart | null> {
  const prior = await loadComponentPrior(db, ctx.vendorId);
  const { knowledge, grid } = components;
  if (knowledge === undefined && prior.current.length === 0 && prior.quiet === null) return null;
  // The open incidents matter only to inference and to a degradation that may be quiet.
  const degraded = [...prior.current, ...(grid?.components ?? [])].some((c) => isDegradedStatus(c.status));
  const openIncidents = knowledge === "inferred" || degraded || prior.quiet !== null ? await loadOpenIncidents(db, ctx.vendorId) : [];
  const step = deriveComponentStep({
    source: ctx.source, observedAt: ctx.observedAt, knowledge, grid, named: components.named, current: prior.current, openIncidents, quiet: prior.quiet,
  });
  await recordComponentStep(db, ctx, prior, step);
  if (step.quiet?.kind !== "start") return null;
  const directory = directoryOf(statesAfter(prior.current, step));
  return { from: ctx.observedAt, components: step.quiet.components.map((key) => nameComponent(directory, key)) };
}

/** What a run's later observations add to its first: when its incidents were last seen. */
export async function touchRunSeen(db: RedlineDb, vendorId: number, application: CaptureApplication, lastObservedAt: string): Promise<void> {
  if (application.derivation.seen.length === 0) return;
  await writeStatements(db).touchSeen.run({ seenAt: lastObservedAt, vendorId, ids: JSON.stringify(application.derivation.seen) });
}

/**
 * Apply one read capture to the vendor's history: load the prior records it concerns, derive,
 * record. Runs inside the caller's transaction. Only good captures change anything; each one
 * becomes the vendor's latest applied capture. A run of good snapshots is applied as its first
 * observation, its later ones having changed nothing but when its incidents were last seen.
 */
export async function applyCapture(db: RedlineDb, vendor: { id: number; name: string }, capture: ReadCapture, resolve: PlatformResolver): Promise<number> {
  const application = await deriveApplication(db, vendor, capture, resolve);
  let recorded: RecordedApplication | null = null;
  if (application) {
    recorded = await recordApplication(db, vendor.id, capture.captureId, capture.key, application);
    if (capture.lastObservedAt > capture.key.observedAt) await touchRunSeen(db, vendor.id, application, capture.lastObservedAt);
  }
  await setAppliedThrough(db, vendor.id, capture.key, recorded?.readStandings);
  return recorded?.versions ?? 0;
}

/** What a capture says once read again: its outcome and warnings may differ under a newer parser. */
export async function saveCaptureReading(db: RedlineDb, capture: ReadCapture): Promise<void> {
  const { parsed } = capture;
  const warnings = parsed.snapshot?.warnings ?? [];
  await writeStatements(db).setCaptureRead.run({
    id: capture.captureId,
    outcome: parsed.outcome,
    error: parsed.error,
    incidentCount: parsed.snapshot ? parsed.snapshot.observations.length + parsed.snapshot.unread.length : null,
    warnings: warningsJson(warnings),
    warningCount: warnings.length,
  });
}
