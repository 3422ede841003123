import { storeBody } from "@/db/history/capture-bodies";
import type { RedlineDb } from "@/db/driver/database";
import type { CaptureKey } from "@/db/record/prior-state";
import type { CaptureOutcome } from "@/db/schema";
import { packVersionContent } from "@/db/history/version-content";
import { searchFieldsOf } from "@/db/search/search-text";
import { appendState } from "@/db/history/state-log";
import { versionStorage } from "@/db/history/version-states";
import { type IncidentValues, insertVersionKinds, writeStatements, type WriteStatements } from "@/db/record/write-statements";
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
  if (await st.captureExists.get(input.vendorId, input.source, input.observedAt, input.hash)) return null;
  const keepBody = input.body !== null && input.body.byteLength > 0 && (input.outcome === "ok" || input.outcome === "invalid");
  await st.registerSource.run(input.vendorId, input.source, input.platform);
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
  });
  if (!inserted) throw new Error(`store: unable to insert capture of vendor ${input.vendorId}`);
  return inserted.id;
}

/** How many versions the vendor's incidents have. */
export async function countVendorVersions(db: RedlineDb, vendorId: number): Promise<number> {
  return Number((await writeStatements(db).vendorVersionCount.get(vendorId))?.n ?? 0);
}

/** The last capture applied to the vendor's history, in capture order; null when none was. */
export async function appliedThrough(db: RedlineDb, vendorId: number): Promise<CaptureKey | null> {
  const row = await writeStatements(db).applied.get(vendorId);
  if (!row || row.observedAt === null || row.source === null || row.hash === null) return null;
  return { observedAt: row.observedAt, source: row.source, hash: row.hash };
}

export async function setAppliedThrough(db: RedlineDb, vendorId: number, key: CaptureKey | null): Promise<void> {
  await writeStatements(db).setApplied.run(key?.observedAt ?? null, key?.source ?? null, key?.hash ?? null, vendorId);
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

/** Keep the search index and the component filter in step with the incident as it now reads. */
async function indexIncident(st: WriteStatements, vendorId: number, incidentId: number, derived: DerivedIncident): Promise<void> {
  const { incident } = derived.record;
  const before = derived.before?.incident;
  // Written again only when what the index holds would change.
  const fields = searchFieldsOf(incident);
  if (!before || JSON.stringify(searchFieldsOf(before)) !== JSON.stringify(fields)) {
    await st.deleteSearch.run(incidentId);
    await st.insertSearch.run(incidentId, ...fields);
  }
  if (!before || JSON.stringify(before.components) !== JSON.stringify(incident.components)) {
    await st.deleteComponents.run(incidentId);
    for (const c of incident.components) await st.insertComponent.run(incidentId, vendorId, c.id, c.name);
  }
}

/** Write one incident's new record (and version, if any) as of a capture; returns its row id. */
export async function writeDerivedIncident(
  db: RedlineDb,
  ctx: { vendorId: number; captureId: number; source: string; observedAt: string },
  derived: DerivedIncident,
  knownId: number | undefined,
): Promise<number> {
  const st = writeStatements(db);
  const values = incidentValues(derived.record, ctx.source, ctx.observedAt);
  let id = knownId;
  if (id === undefined) {
    const inserted = await st.insertIncident.get({ ...values, vendorId: ctx.vendorId, providerId: derived.providerId });
    if (!inserted) throw new Error(`store: unable to insert incident ${derived.providerId}`);
    id = inserted.id;
  } else await st.updateIncident.run({ ...values, id });
  for (const [source, view] of Object.entries(derived.record.sources)) {
    const was = derived.before?.sources[source];
    if (was && was.listed === view.listed && was.hash === view.hash) continue;
    await st.upsertIncidentSource.run(id, ctx.vendorId, source, view.listed ? 1 : 0, view.hash);
  }
  await appendState(db, id, ctx.captureId, values.state);
  const { version } = derived;
  if (version) {
    const { incident } = version.state;
    const row = await st.insertVersion.get({
      incidentId: id,
      vendorId: ctx.vendorId,
      seq: version.seq,
      observedAt: ctx.observedAt,
      hash: version.hash,
      ...(await versionStorage(db, id, version.seq, JSON.stringify(version.state), values.state)),
      kinds: JSON.stringify(version.kinds),
      content: packVersionContent({
        changes: version.changes, summary: version.summary, headline: version.headline,
        title: incident.title, impact: incident.impact, incidentKind: incident.kind,
        status: incident.status, open: isOpenIncident(incident, version.state.presence),
      }),
      textVersion: SUMMARY_VERSION,
      captureId: ctx.captureId,
    });
    if (!row) throw new Error(`store: unable to insert version ${version.seq} of incident ${derived.providerId}`);
    await insertVersionKinds(st, row.id, version.kinds, ctx.vendorId, ctx.observedAt);
    const removed = derived.before ? removedText(derived.before.incident, incident) : "";
    if (removed !== "") await st.insertRemovedText.run(row.id, removed);
  }
  await indexIncident(st, ctx.vendorId, id, derived);
  return id;
}

/**
 * Record what deriving one capture gave: every changed record, its version, the incidents seen.
 * Runs inside the caller's transaction. Returns the number of versions added.
 */
export async function recordDerivation(
  db: RedlineDb,
  ctx: { vendorId: number; captureId: number; source: string; observedAt: string },
  derivation: CaptureDerivation,
  ids: ReadonlyMap<string, number>,
): Promise<number> {
  const st = writeStatements(db);
  let versions = 0;
  for (const derived of derivation.incidents) {
    await writeDerivedIncident(db, ctx, derived, ids.get(derived.providerId));
    if (derived.version) versions += 1;
  }
  if (derivation.seen.length > 0) await st.touchSeen.run({ seenAt: ctx.observedAt, vendorId: ctx.vendorId, ids: JSON.stringify(derivation.seen) });
  await st.setCaptureDerived.run(versions, derivation.windowStart, ctx.captureId);
  return versions;
}
