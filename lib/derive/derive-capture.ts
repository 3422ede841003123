import { canonicalizeIncident, hashIncident, sha256Hex } from "@/lib/canonicalize";
import type { Change } from "@/lib/change";
import { type ChangeKindName, EDIT_KINDS, isNewSourceReport } from "@/lib/change-kinds";
import { classifyChanges } from "@/lib/derive/classify-changes";
import { type IncidentRecord, recordState } from "@/lib/derive/incident-record";
import { mergeObservation, type MergedObservation } from "@/lib/derive/merge-observation";
import type { Observation, ParsedSnapshot } from "@/lib/derive/observation";
import {
  type Absence, awaits, isLive, judgeAbsences, recencyOf, type SourceStanding, windowStartOf,
} from "@/lib/derive/presence";
import type { SourceProfile } from "@/lib/derive/source-profile";
import { diffStates } from "@/lib/diff-incidents";
import { type IncidentState, isResolvedStatus, keepFirstById, type Presence } from "@/lib/incident";
import { headlineVersion, summarizeVersion } from "@/lib/summarize";

/** An observation made canonical, with the hash its source's view is compared by. */
export interface PreparedObservation extends Observation {
  hash: string;
}

/** Canonical observations (first listing of an id wins) and their hashes: what the store looks records up by. */
export function prepareObservations(snapshot: ParsedSnapshot): PreparedObservation[] {
  const observations = keepFirstById(snapshot.observations.map((o) => ({ ...o, id: o.incident.id })));
  return observations.map(({ id: _id, ...o }) => {
    const incident = canonicalizeIncident(o.incident);
    const marks = o.unstated.length > 0 || o.statements || o.partialUpdates ? sha256Hex(JSON.stringify([o.unstated, o.statements ?? null, o.partialUpdates])) : "";
    return { ...o, incident, hash: marks === "" ? hashIncident(incident) : sha256Hex(hashIncident(incident) + marks) };
  });
}

export interface CaptureInput {
  vendorName: string;
  source: string;
  observedAt: string;
  profile: SourceProfile;
  observations: readonly PreparedObservation[];
  unread: ParsedSnapshot["unread"];
  /**
   * Records of: the listed incidents whose observation differs from this source's last, the
   * incidents this source listed before, and the listed incidents that appeared since its last look.
   */
  records: ReadonlyMap<string, IncidentRecord>;
  /** Listed incidents observed exactly as this source last listed them: nothing happens to them. */
  unchanged: ReadonlySet<string>;
  /** How many incidents this source listed before this capture. */
  previouslyListed: number;
  /** This source and the vendor's other sources as they stood before this capture. */
  own: SourceStanding;
  others: readonly SourceStanding[];
}

export interface DraftVersion {
  seq: number;
  state: IncidentState;
  changes: Change[];
  kinds: ChangeKindName[];
  summary: string;
  headline: string;
  hash: string;
}

export interface DerivedIncident {
  providerId: string;
  /** Null for an incident this capture created. */
  before: IncidentRecord | null;
  record: IncidentRecord;
  version: DraftVersion | null;
}

export interface CaptureDerivation {
  /** Every incident whose record changed, with its new version if the change is reportable. */
  incidents: DerivedIncident[];
  /** Listed by this snapshot (read or not): seen now. */
  seen: string[];
  windowStart: string | null;
}

function setView(record: IncidentRecord, source: string, listed: boolean, absence: Absence | null): IncidentRecord {
  const view = record.sources[source] ?? { listed: false, absence: null, hash: null, fields: {}, updates: null };
  return { ...record, sources: { ...record.sources, [source]: { ...view, listed, absence } } };
}

/** Whether some source lists the incident again after having judged it gone. */
function relisted(before: IncidentRecord, after: IncidentRecord): boolean {
  return Object.entries(after.sources).some(([source, view]) => view.listed && before.sources[source]?.listed === false && before.sources[source]?.absence !== null);
}

/** Listed when some live source lists it, or one that should list it has not looked yet; otherwise how it went. */
function presenceOf(record: IncidentRecord, input: CaptureInput, judged: Absence | undefined): Presence {
  const standings = new Map(input.others.map((s) => [s.source, s]));
  const listers = Object.entries(record.sources).filter(([source, view]) => {
    if (!view.listed) return false;
    if (source === input.source) return true;
    const standing = standings.get(source);
    return standing !== undefined && isLive(standing, input.observedAt);
  });
  if (listers.length > 0) return "listed";
  if (record.presence === "listed" && input.others.some((s) => awaits(s, record, input.observedAt) && !record.sources[s.source]?.absence)) return "listed";
  return judged ?? (record.presence === "listed" ? "left-feed" : record.presence);
}

/**
 * Whether this capture is a listing source's first good one for the vendor: what it then says of an
 * incident already archived is its account of the past, not news. A follow-up read for one incident
 * (a postmortem page) is always its source's first and only look, and is news when it is made.
 */
function isNewSource(input: CaptureInput): boolean {
  return input.own.lastLiveAt === null && input.profile.presence.kind !== "single";
}

function draftVersion(input: CaptureInput, before: IncidentRecord | null, base: IncidentState | null, record: IncidentRecord): DraftVersion | null {
  const state = recordState(record);
  const changes = diffStates(base, state, { pairBy: "id" });
  if (base !== null && changes.length === 0) return null;
  const previous = before ? recordState(before) : null;
  const kinds = classifyChanges(changes, { isFirst: base === null, newSource: before !== null && isNewSource(input) });
  const summaryInput = { vendorName: input.vendorName, state, previous, changes, kinds, observedAt: input.observedAt };
  return {
    seq: record.versionCount + 1, state, changes, kinds,
    summary: summarizeVersion(summaryInput), headline: headlineVersion(summaryInput), hash: hashIncident(state.incident),
  };
}

/**
 * The record's running figures after a version: count, last change, first postmortem, edits after
 * resolution. A new source's account dates a postmortem by the time it gives, and edits nothing.
 */
function advance(record: IncidentRecord, before: IncidentRecord | null, version: DraftVersion, observedAt: string): IncidentRecord {
  const previous = before?.incident;
  const wasOver = previous !== undefined && (previous.resolvedAt !== null || isResolvedStatus(previous.status));
  const edited = wasOver && version.kinds.some((k) => EDIT_KINDS.has(k));
  const postmortem = record.incident.postmortem;
  const postmortemAt = postmortem && isNewSourceReport(version.kinds) ? (postmortem.publishedAt ?? observedAt) : observedAt;
  return {
    ...record,
    versionCount: version.seq,
    lastChangedAt: observedAt,
    postmortemAt: record.postmortemAt ?? (postmortem ? postmortemAt : null),
    editsAfterResolution: record.editsAfterResolution + (edited ? 1 : 0),
  };
}

/**
 * The derive stage: one source's parsed snapshot against the prior records of the incidents it
 * concerns gives new records and versions. Pure: the store loads the records and records the result.
 * Nothing is inferred from what could not be read: an unreadable incident keeps its record and
 * is never judged absent, and an unreadable element without an id suspends every absence judgement.
 */
export function deriveCapture(input: CaptureInput): CaptureDerivation {
  const { profile, source, observedAt } = input;
  const lists = profile.presence.kind !== "single";
  const ctx = { source, profile, observedAt };
  const merged = new Map<string, MergedObservation>();
  const listedNow = new Set<string>([...input.unchanged]);
  for (const obs of input.observations) {
    const id = obs.incident.id;
    listedNow.add(id);
    if (input.unchanged.has(id)) continue;
    const prior = input.records.get(id) ?? null;
    if (prior === null && !profile.createsIncidents) continue;
    const result = mergeObservation(prior, obs, { ...ctx, hash: obs.hash });
    merged.set(id, lists ? { ...result, record: setView(result.record, source, true, null) } : result);
  }
  for (const u of input.unread) if (u.id !== null) listedNow.add(u.id);

  const judged = new Map<string, Absence>();
  const blind = input.unread.some((u) => u.id === null);
  if (lists && !blind) {
    const missing: Array<{ key: string; recency: string | null }> = [];
    for (const [id, record] of input.records) {
      if (listedNow.has(id)) continue;
      const view = record.sources[source];
      const listedBefore = view?.listed === true;
      const awaited = !listedBefore && !view?.absence && record.presence === "listed" && awaits(input.own, record, observedAt);
      if (listedBefore || awaited) missing.push({ key: id, recency: recencyOf(record.incident, profile.presence) });
    }
    const stillListed = input.observations.map((o) => recencyOf(o.incident, profile.presence));
    for (const [id, verdict] of judgeAbsences(profile.presence, missing, stillListed, input.previouslyListed)) judged.set(id, verdict);
  }

  const incidents: DerivedIncident[] = [];
  const settle = (id: string, before: IncidentRecord | null, record: IncidentRecord, base: IncidentState | null) => {
    const presence = lists ? presenceOf(record, input, judged.get(id)) : record.presence;
    let next: IncidentRecord = { ...record, presence };
    // Listed again only because a source lists it for the first time: that source joined, the
    // vendor did nothing. A reappearance is a source listing again what it had stopped listing.
    const silent = base !== null && before !== null && presence === "listed" && before.presence !== "listed" && !relisted(before, next);
    const version = draftVersion(input, before, silent && base ? { ...base, presence } : base, next);
    if (version) next = advance(next, before, version, observedAt);
    if (version || before === null || JSON.stringify(before) !== JSON.stringify(next)) incidents.push({ providerId: id, before, record: next, version });
  };
  for (const [id, result] of merged) {
    const before = input.records.get(id) ?? null;
    settle(id, before, result.record, result.base && before ? { incident: result.base, presence: before.presence } : null);
  }
  for (const [id, verdict] of judged) {
    const before = input.records.get(id);
    if (!before) continue;
    settle(id, before, setView(before, source, false, verdict), recordState(before));
  }
  return {
    incidents,
    seen: [...listedNow],
    windowStart: windowStartOf(profile.presence, input.observations.map((o) => o.incident)),
  };
}
