import { storeBody } from "@/db/history/capture-bodies";
import type { RedlineDb } from "@/db/driver/database";
import type { CaptureKey } from "@/db/record/prior-state";
import type { CaptureOutcome } from "@/db/schema";
import { packVersionContent } from "@/db/history/version-content";
import { searchFieldsOf } from "@/db/search/search-text";
import { appendStates, type StateRow } from "@/db/history/state-log";
import { versionStorage } from "@/db/history/version-states";
import { writeRows } from "@/db/driver/batch";
import { type IndexedIncident, reindexIncidents } from "@/db/record/incident-index";
import { type IncidentValues, versionKindRows, writeStatements } from "@/db/record/write-statements";
import type { CaptureDerivation, DerivedIncident } from "@/lib/derive/derive-capture";
import type { IncidentRecord } from "@/lib/derive/incident-record";
import type { ReadWarning } from "@/lib/derive/observation";
import { isOpenIncident } from "@/lib/incident";
import { removedText } from "@/lib/removed-text";
import { SUMMARY_VERSION } from "@/lib/summarize";

export interface CaptureInput {
  vendorId: number;
  /** Where the snapshot came from: an endpoint URL, or the file name for imports. */
  source: string;
  platform: string;
  observedAt: string;
  /** sha256 of the raw body (of the empty body when there is none). */
  hash: string;
  /** The raw body, kept for ok and invalid captures so history can be re-derived. */
  body: Uint8Array | null;
  /** The body's size when it is not passed (an unchanged body is not stored again). */
  size?: number | null;
  outcome: CaptureOutcome;
  error: string | null;
  incidentCount: number | null;
  warnings: readonly ReadWarning[];
  /** Whether its source is registered already (read in the capture's transaction): then it is not registered again. */
  sourceKnown?: boolean;
  /** What deriving it gave, when it was derived before its row is written (recordDerivation then leaves the row be). */
  derived?: CaptureDerived;
}

/** What deriving a capture gave, kept on its row: the versions it added and the window it read. */
export interface CaptureDerived {
  versionCount: number;
  windowStart: string | null;
}

export function capturedDerived(derivation: CaptureDerivation): CaptureDerived {
  return { versionCount: derivation.incidents.filter((d) => d.version).length, windowStart: derivation.windowStart };
}

/** At most this many warnings are kept per capture; the count says how many there were. */
const MAX_KEPT_WARNINGS = 100;

export function warningsJson(warnings: readonly ReadWarning[]): string | null {
  return warnings.length === 0 ? null : JSON.stringify(warnings.slice(0, MAX_KEPT_WARNINGS));
}

/**
 * Record a capture row, a run of one (and its body, content-addressed); null when exactly this
 * capture was recorded before. Whether an observation continues a run instead: db/capture-runs.
 */
export async function insertCapture(db: RedlineDb, input: CaptureInput): Promise<number | null> {
  const st = writeStatements(db);
  const keepBody = input.body !== null && input.body.byteLength > 0 && (input.outcome === "ok" || input.outcome === "invalid");
  if (!input.sourceKnown) await st.registerSource.run(input.vendorId, input.source, input.platform);
  const bodyId = keepBody && input.body ? await storeBody(db, input, input.hash, input.body) : null;
  const inserted = await st.insertCapture.get({
    vendorId: input.vendorId,
    source: input.source,
    platform: input.platform,
    observedAt: input.observedAt,
    outcome: input.outcome,
    error: input.error,
    size: input.body?.byteLength ?? input.size ?? null,
    hash: input.hash,
    bodyId,
    incidentCount: input.incidentCount,
    recordedAt: new Date().toISOString(),
    warnings: warningsJson(input.warnings),
    warningCount: input.warnings.length,
    versionCount: input.derived?.versionCount ?? 0,
    windowStart: input.derived?.windowStart ?? null,
  });
  // Recorded before at this very instant: the run placing found is another content's.
  return inserted?.id ?? null;
}

/** How many versions the vendor's incidents have. */
export async function countVendorVersions(db: RedlineDb, vendorId: number): Promise<number> {
  return Number((await writeStatements(db).vendorVersionCount.get(vendorId))?.n ?? 0);
}

/** The vendor's last observation (the end of its latest run); null when it has no capture. */
export async function lastObservation(db: RedlineDb, vendorId: number): Promise<string | null> {
  return (await writeStatements(db).lastObservation.get(vendorId))?.at ?? null;
}

/** The last capture applied to the vendor's history, in capture order; null when none was. */
export async function appliedThrough(db: RedlineDb, vendorId: number): Promise<CaptureKey | null> {
  const row = await writeStatements(db).applied.get(vendorId);
  if (!row || row.observedAt === null || row.source === null || row.hash === null) return null;
  return { observedAt: row.observedAt, source: row.source, hash: row.hash };
}

/**
 * Note the capture applied last; `readStandings`: applying it read the standing of the vendor's
 * other sources (lib/derive/capture-place.ts: a run it continues may need them read again).
 */
export async function setAppliedThrough(db: RedlineDb, vendorId: number, key: CaptureKey | null, readStandings = false): Promise<void> {
  await writeStatements(db).setApplied.run({ observedAt: key?.observedAt ?? null, source: key?.source ?? null, hash: key?.hash ?? null, read: readStandings && key ? 1 : 0, id: vendorId });
}

/** The source a page names as the incident's: the one that lists it now, this capture's first. */
function listingSource(record: IncidentRecord, current: string): string {
  const listed = Object.entries(record.sources).filter(([, v]) => v.listed).map(([s]) => s);
  if (listed.includes(current)) return current;
  return listed[0] ?? Object.keys(record.sources)[0] ?? current;
}

function incidentValues(record: IncidentRecord, source: string, observedAt: string): IncidentValues {
  const { incident } = record;
  const view = record.sources[source];
  return {
    kind: incident.kind,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    presence: record.presence,
    source: listingSource(record, source),
    observedHash: view?.hash ?? "",
    firstSeenAt: record.firstSeenAt,
    seenAt: view?.listed ? observedAt : record.firstSeenAt,
    versionCount: record.versionCount,
    lastChangedAt: record.lastChangedAt,
    postmortemAt: record.postmortemAt,
    editsAfterResolution: record.editsAfterResolution,
    state: JSON.stringify(record),
  };
}

/** Whether what the search index or the component filter hold of the incident changes. */
function reindexed(id: number, derived: DerivedIncident): IndexedIncident | null {
  const { incident } = derived.record;
  const before = derived.before?.incident;
  const search = !before || JSON.stringify(searchFieldsOf(before)) !== JSON.stringify(searchFieldsOf(incident));
  const components = !before || JSON.stringify(before.components) !== JSON.stringify(incident.components);
  return search || components ? { id, incident, search, components } : null;
}

type WriteContext = { vendorId: number; captureId: number; source: string; observedAt: string };

/** The values of an incident row as `incidentRows` takes them. */
function incidentRow(vendorId: number, providerId: string, v: IncidentValues): unknown[] {
  return [
    vendorId, providerId, v.kind, v.title, v.status, v.impact, v.startedAt, v.resolvedAt, v.presence, v.source,
    v.firstSeenAt, v.seenAt, v.observedHash, v.versionCount, v.lastChangedAt, v.postmortemAt, v.editsAfterResolution,
  ];
}

/**
 * Write incidents' new records (and versions, if any) as of a capture, each incident once: a few
 * statements per table for all of them (db/driver/batch.ts), not one per row.
 */
async function writeDerivedIncidents(db: RedlineDb, ctx: WriteContext, incidents: readonly DerivedIncident[], known: ReadonlyMap<string, number>, states: ReadonlyMap<number, StateRow | null>): Promise<void> {
  const st = writeStatements(db);
  const written = incidents.map((derived) => ({ derived, values: incidentValues(derived.record, ctx.source, ctx.observedAt) }));
  const rowIds = new Map<string, number>();
  const returned = await writeRows<{ id: number; providerId: string }>(db.connection, st.incidentRows, written.map((w) => incidentRow(ctx.vendorId, w.derived.providerId, w.values)));
  for (const row of returned) rowIds.set(row.providerId, row.id);
  const idOf = (derived: DerivedIncident): number => {
    const id = rowIds.get(derived.providerId);
    if (id === undefined) throw new Error(`store: unable to write incident ${derived.providerId}`);
    return id;
  };
  const listings: unknown[][] = [];
  for (const { derived } of written) {
    for (const [source, view] of Object.entries(derived.record.sources)) {
      const was = derived.before?.sources[source];
      if (!was || was.listed !== view.listed || was.hash !== view.hash) listings.push([idOf(derived), ctx.vendorId, source, view.listed ? 1 : 0, view.hash]);
    }
  }
  await writeRows(db.connection, st.incidentSourceRows, listings);
  await appendStates(db, written.map(({ derived, values }) => {
    const incidentId = idOf(derived);
    return { incidentId, captureId: ctx.captureId, state: values.state, known: known.has(derived.providerId), latest: states.get(incidentId) };
  }));
  const versions: unknown[][] = [];
  const versioned: DerivedIncident[] = [];
  for (const { derived, values } of written) {
    const { version } = derived;
    if (!version) continue;
    const id = idOf(derived);
    const { incident } = version.state;
    const storage = await versionStorage(db, id, version.seq, JSON.stringify(version.state), values.state);
    const content = packVersionContent({
      changes: version.changes, summary: version.summary, headline: version.headline,
      title: incident.title, impact: incident.impact, incidentKind: incident.kind,
      status: incident.status, open: isOpenIncident(incident, version.state.presence),
    });
    versions.push([id, ctx.vendorId, version.seq, ctx.observedAt, version.hash, storage.snapshot, storage.patch, JSON.stringify(version.kinds), content, SUMMARY_VERSION, ctx.captureId]);
    versioned.push(derived);
  }
  const versionIds = new Map((await writeRows<{ id: number; incidentId: number }>(db.connection, st.versionRows, versions)).map((r) => [r.incidentId, r.id]));
  const kinds: unknown[][] = [];
  const removed: unknown[][] = [];
  for (const derived of versioned) {
    const versionId = versionIds.get(idOf(derived));
    if (versionId === undefined || !derived.version) throw new Error(`store: unable to insert version ${derived.version?.seq ?? "?"} of incident ${derived.providerId}`);
    kinds.push(...versionKindRows(versionId, derived.version.kinds, ctx.vendorId, ctx.observedAt));
    const text = derived.before ? removedText(derived.before.incident, derived.version.state.incident) : "";
    if (text !== "") removed.push([versionId, text]);
  }
  await writeRows(db.connection, st.kindRows, kinds);
  await writeRows(db.connection, db.connection.dialect.record.removedTexts, removed);
  await reindexIncidents(db, ctx.vendorId, written.flatMap(({ derived }) => reindexed(idOf(derived), derived) ?? []));
}

/** Incidents in groups that name each at most once, in order: a group is written at once. */
function onceEach(incidents: readonly DerivedIncident[]): DerivedIncident[][] {
  const groups: DerivedIncident[][] = [];
  let group: DerivedIncident[] = [];
  let seen = new Set<string>();
  for (const derived of incidents) {
    if (seen.has(derived.providerId)) {
      groups.push(group);
      group = [];
      seen = new Set();
    }
    group.push(derived);
    seen.add(derived.providerId);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

/**
 * Record what deriving one capture gave: every changed record, its version, the incidents seen,
 * and on the capture's row what it added (unless `rowDerived`: written with the row).
 * Runs inside the caller's transaction. Returns the number of versions added.
 */
export async function recordDerivation(
  db: RedlineDb,
  ctx: WriteContext,
  derivation: CaptureDerivation,
  prior: { ids: ReadonlyMap<string, number>; states?: ReadonlyMap<number, StateRow | null> },
  options: { rowDerived?: boolean } = {},
): Promise<number> {
  const st = writeStatements(db);
  const known = new Map(prior.ids);
  // The latest logged rows read with the records hold for the first group; later ones read their own.
  let states = prior.states ?? new Map<number, StateRow | null>();
  for (const group of onceEach(derivation.incidents)) {
    await writeDerivedIncidents(db, ctx, group, known, states);
    for (const derived of group) known.set(derived.providerId, 0);
    states = new Map();
  }
  const derived = capturedDerived(derivation);
  if (derivation.seen.length > 0) await st.touchSeen.run({ seenAt: ctx.observedAt, vendorId: ctx.vendorId, ids: JSON.stringify(derivation.seen) });
  if (!options.rowDerived) await st.setCaptureDerived.run(derived.versionCount, derived.windowStart, ctx.captureId);
  return derived.versionCount;
}
