import { canonicalizeUpdates } from "@/lib/canonicalize";
import type { IncidentRecord, SourceView, StatedValues, UpdateProvenance, ViewUpdate } from "@/lib/derive/incident-record";
import { judgeStatement, type StatementVerdict } from "@/lib/derive/judge-statement";
import { matchUpdates } from "@/lib/derive/match-updates";
import type { Observation } from "@/lib/derive/observation";
import {
  sameFieldValue, sameText, sameTime, STATED_FIELDS, type SourceProfile, type StatedField, type Statement, type UpdateStatements,
} from "@/lib/derive/source-profile";
import type { Incident, IncidentUpdate } from "@/lib/incident";

export interface MergeContext {
  source: string;
  profile: SourceProfile;
  observedAt: string;
  /** Content hash of the observation, kept on the source's view. */
  hash: string;
}

export interface MergedObservation {
  record: IncidentRecord;
  /**
   * The previous incident with this observation's silent refinements applied: diffing it against
   * the record's incident gives exactly the reportable changes. Null for a new incident.
   */
  base: Incident | null;
}

const DEFAULTS: Incident = {
  vendor: "", id: "", kind: "incident", title: "", status: null, impact: null, url: null, startedAt: null, resolvedAt: null,
  scheduledFor: null, scheduledUntil: null, components: [], updates: [], postmortem: null,
};

function statementOf(obs: Observation, profile: SourceProfile, field: StatedField): Statement | undefined {
  if (obs.unstated.includes(field)) return undefined;
  return obs.statements?.[field] ?? profile.fields[field];
}

function statesUpdates(obs: Observation, profile: SourceProfile): UpdateStatements | null {
  return profile.updates !== null && !obs.unstated.includes("updates") ? profile.updates : null;
}

function setField<F extends StatedField>(target: Incident, field: F, value: Incident[F]): void {
  target[field] = value;
}

function freshId(preferred: string, used: Set<string>): string {
  let id = preferred;
  for (let n = 2; used.has(id); n += 1) id = `${preferred}-${n}`;
  used.add(id);
  return id;
}

function sameAsStated(a: IncidentUpdate, b: IncidentUpdate): boolean {
  return a.body === b.body && a.status === b.status && a.displayAt === b.displayAt && a.createdAt === b.createdAt;
}

/** A new incident as its first observation states it; what it does not state is blank until someone does. */
function createRecord(obs: Observation, ctx: MergeContext): MergedObservation {
  const incident: Incident = { ...DEFAULTS, vendor: obs.incident.vendor, id: obs.incident.id };
  const provenance: IncidentRecord["provenance"] = {};
  const fields: StatedValues = {};
  for (const field of STATED_FIELDS) {
    const at = statementOf(obs, ctx.profile, field);
    if (at === undefined) continue;
    setField(incident, field, obs.incident[field]);
    provenance[field] = at;
    Object.assign(fields, { [field]: obs.incident[field] });
  }
  const statements = statesUpdates(obs, ctx.profile);
  const updateProvenance: Record<string, UpdateProvenance> = {};
  let view: ViewUpdate[] | null = null;
  if (statements) {
    const used = new Set<string>();
    view = obs.incident.updates.map((u) => {
      const id = freshId(u.id, used);
      updateProvenance[id] = provenanceOf(u, statements);
      return { ...u, mergedId: id };
    });
    incident.updates = canonicalizeUpdates(view.map(({ mergedId, ...u }) => ({ ...u, id: mergedId })));
  }
  const sourceView: SourceView = { listed: false, absence: null, hash: ctx.hash, fields, updates: view };
  return {
    base: null,
    record: {
      incident, presence: "listed", provenance, updateProvenance, sources: { [ctx.source]: sourceView },
      firstSeenAt: ctx.observedAt, lastChangedAt: ctx.observedAt, versionCount: 0, postmortemAt: null, editsAfterResolution: 0,
    },
  };
}

function provenanceOf(u: IncidentUpdate, s: UpdateStatements): UpdateProvenance {
  return { time: s.time, text: s.text, status: u.status === s.keptStatus ? null : "exact", createdAt: s.createdAt ? s.time : null };
}

interface UpdateFieldRule {
  key: "displayAt" | "createdAt" | "status" | "body";
  prov: keyof UpdateProvenance;
  at: (s: UpdateStatements, u: IncidentUpdate) => Statement | null;
  same: (a: string | null, b: string | null, at: Statement) => boolean;
}

const UPDATE_FIELDS: UpdateFieldRule[] = [
  { key: "displayAt", prov: "time", at: (s) => s.time, same: sameTime },
  { key: "createdAt", prov: "createdAt", at: (s) => (s.createdAt ? s.time : null), same: sameTime },
  { key: "status", prov: "status", at: (s, u) => (u.status === s.keptStatus ? null : "exact"), same: (a, b) => a === b },
  { key: "body", prov: "text", at: (s) => s.text, same: sameText },
];

/** Merge one source's statement of an update into the merged update, field by field. */
function mergeUpdate(
  next: IncidentUpdate, base: IncidentUpdate | undefined, prov: UpdateProvenance, observed: IncidentUpdate, previous: IncidentUpdate | null, s: UpdateStatements,
): UpdateProvenance {
  const out = { ...prov };
  for (const rule of UPDATE_FIELDS) {
    const at = rule.at(s, observed);
    if (at === null) continue;
    const currentAt = prov[rule.prov] ?? undefined;
    const verdict: StatementVerdict = judgeStatement<string | null>({
      current: next[rule.key], currentAt, value: observed[rule.key], at, previous: previous ? previous[rule.key] : undefined, same: rule.same,
    });
    if (verdict === "keep") continue;
    Object.assign(next, { [rule.key]: observed[rule.key] });
    if (verdict === "refine" && base) Object.assign(base, { [rule.key]: observed[rule.key] });
    out[rule.prov] = at;
  }
  return out;
}

/**
 * Merge one observation into an incident's record: each stated field by the statement rules
 * (judgeStatement), each update matched to its identity and merged field by field, updates this
 * source listed before and no longer lists removed (only from a full list read whole).
 * Presence is decided later, across all sources.
 */
export function mergeObservation(record: IncidentRecord | null, obs: Observation, ctx: MergeContext): MergedObservation {
  if (record === null) return createRecord(obs, ctx);
  const next: Incident = { ...record.incident };
  const base: Incident = { ...record.incident };
  const provenance = { ...record.provenance };
  const previousView = record.sources[ctx.source];
  const fields: StatedValues = { ...previousView?.fields };
  for (const field of STATED_FIELDS) {
    const at = statementOf(obs, ctx.profile, field);
    if (at === undefined) continue;
    const value = obs.incident[field];
    const previous = previousView && field in previousView.fields ? previousView.fields[field] : undefined;
    const verdict = judgeStatement({
      current: next[field], currentAt: provenance[field], value, at, previous,
      same: (a, b, level) => sameFieldValue(field, a, b, level),
    });
    Object.assign(fields, { [field]: value });
    if (verdict === "keep") continue;
    setField(next, field, value);
    if (verdict === "refine") setField(base, field, value);
    provenance[field] = at;
  }

  let updateProvenance = record.updateProvenance;
  let viewUpdates = previousView?.updates ?? null;
  const statements = statesUpdates(obs, ctx.profile);
  if (statements) {
    const merged = mergeUpdates(record, next, base, obs, statements, previousView?.updates ?? null);
    updateProvenance = merged.provenance;
    viewUpdates = merged.view;
  }
  const view: SourceView = {
    listed: previousView?.listed ?? false, absence: previousView?.absence ?? null, hash: ctx.hash, fields, updates: viewUpdates,
  };
  return {
    base,
    record: { ...record, incident: next, provenance, updateProvenance, sources: { ...record.sources, [ctx.source]: view } },
  };
}

function mergeUpdates(
  record: IncidentRecord, next: Incident, base: Incident, obs: Observation, s: UpdateStatements, previousView: ViewUpdate[] | null,
): { provenance: Record<string, UpdateProvenance>; view: ViewUpdate[] } {
  const observed = obs.incident.updates;
  const { mergedIds, viewEntries } = matchUpdates(observed, s, previousView, next.updates, record.updateProvenance);
  const nextById = new Map(next.updates.map((u) => [u.id, { ...u }]));
  const baseById = new Map(base.updates.map((u) => [u.id, { ...u }]));
  const provenance = new Map(Object.entries(record.updateProvenance));
  const used = new Set<string>([...nextById.keys(), ...Object.values(record.sources).flatMap((v) => (v.updates ?? []).map((e) => e.mergedId))]);
  const view: ViewUpdate[] = [];
  const continued = new Set<string>();
  observed.forEach((u, i) => {
    const mergedId = mergedIds[i] ?? null;
    const entry = viewEntries[i] ?? null;
    if (entry) continued.add(entry.mergedId);
    if (mergedId !== null) {
      const target = nextById.get(mergedId);
      if (target) {
        const prov = provenance.get(mergedId) ?? provenanceOf(target, s);
        provenance.set(mergedId, mergeUpdate(target, baseById.get(mergedId), prov, u, entry, s));
      }
      continued.add(mergedId);
      view.push({ ...u, mergedId });
      return;
    }
    // This source repeats an update another source reported removed: its stale copy says nothing new.
    if (entry && sameAsStated(entry, u)) {
      view.push({ ...u, mergedId: entry.mergedId });
      return;
    }
    const id = freshId(u.id, used);
    nextById.set(id, { ...u, id });
    provenance.set(id, provenanceOf(u, s));
    view.push({ ...u, mergedId: id });
  });
  for (const entry of previousView ?? []) {
    if (continued.has(entry.mergedId)) continue;
    if (s.list === "partial" || obs.partialUpdates) {
      view.push(entry);
      continue;
    }
    nextById.delete(entry.mergedId);
    provenance.delete(entry.mergedId);
  }
  next.updates = canonicalizeUpdates([...nextById.values()]);
  base.updates = canonicalizeUpdates([...baseById.values()]);
  return { provenance: Object.fromEntries(provenance), view };
}
