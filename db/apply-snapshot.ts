import type { RedlineDb } from "@/db/client";
import { type IncidentRow, writeStatements, type WriteStatements } from "@/db/write-statements";
import { canonicalizeIncident, hashIncident } from "@/lib/canonicalize";
import type { Change } from "@/lib/change";
import { classifyChanges } from "@/lib/classify-changes";
import { diffStates } from "@/lib/diff-incidents";
import { type ChangeKindName, EDIT_KINDS } from "@/lib/change-kinds";
import { type Incident, type IncidentState, isResolvedStatus, keepFirstById, type Presence } from "@/lib/incident";
import { type CarryRule, mergeCarried } from "@/lib/carried-fields";
import { judgeAbsences, recencyOf, type PresenceRule } from "@/lib/presence";
import { headlineVersion, summarizeVersion } from "@/lib/summarize";

export interface SnapshotContext {
  vendor: { id: number; name: string };
  captureId: number;
  source: string;
  observedAt: string;
  presence: PresenceRule;
  carry?: CarryRule;
}

function lastState(st: WriteStatements, incidentId: number): IncidentState {
  const row = st.lastSnapshot.get(incidentId);
  if (!row) throw new Error(`store: incident ${incidentId} has no version`);
  return JSON.parse(row.snapshot) as IncidentState;
}

function appendVersion(
  st: WriteStatements,
  ctx: SnapshotContext,
  row: IncidentRow | null,
  previous: IncidentState | null,
  state: IncidentState,
  observedHash: string,
  changes: Change[],
): void {
  const kinds = classifyChanges(changes, { isFirst: previous === null });
  const summaryInput = { vendorName: ctx.vendor.name, state, previous, changes, kinds, observedAt: ctx.observedAt };
  const summary = summarizeVersion(summaryInput);
  const headline = headlineVersion(summaryInput);
  const { incident, presence } = state;
  const hash = hashIncident(incident);
  // A single-incident source (an incident page) adds to an incident without taking over its listing.
  const takesOver = row === null || ctx.presence.kind !== "single";
  const listing = takesOver || row === null ? { source: ctx.source, observedHash } : { source: row.source, observedHash: row.observedHash };
  const values = {
    kind: incident.kind,
    title: incident.title,
    status: incident.status,
    impact: incident.impact,
    startedAt: incident.startedAt,
    resolvedAt: incident.resolvedAt,
    presence,
    ...listing,
  };
  let incidentId: number;
  let seq: number;
  if (row === null) {
    const inserted = st.insertIncident.get({ ...values, vendorId: ctx.vendor.id, providerId: incident.id, observedAt: ctx.observedAt });
    if (!inserted) throw new Error(`store: unable to insert incident ${incident.id}`);
    incidentId = inserted.id;
    seq = 1;
  } else {
    incidentId = row.id;
    seq = row.versionCount + 1;
    st.updateIncident.run({ ...values, id: row.id, versionCount: seq, observedAt: ctx.observedAt, seenAt: takesOver && presence === "listed" ? ctx.observedAt : null });
  }
  const version = st.insertVersion.get({
    incidentId,
    vendorId: ctx.vendor.id,
    seq,
    observedAt: ctx.observedAt,
    hash,
    snapshot: JSON.stringify(state),
    changes: JSON.stringify(changes),
    kinds: JSON.stringify(kinds),
    summary,
    headline,
    captureId: ctx.captureId,
  });
  if (!version) throw new Error(`store: unable to insert version ${seq} of incident ${incident.id}`);
  for (const kind of kinds) st.insertKind.run(version.id, kind, ctx.vendor.id, ctx.observedAt);
  indexIncident(st, ctx, incidentId, previous, state, changes, kinds);
}

/** Keep the search index, the component filter and the profile figures in step with the new version. */
function indexIncident(
  st: WriteStatements,
  ctx: SnapshotContext,
  incidentId: number,
  previous: IncidentState | null,
  state: IncidentState,
  changes: readonly Change[],
  kinds: readonly ChangeKindName[],
): void {
  const { incident } = state;
  const before = previous?.incident;
  const changed = new Set(changes.map((c) => c.field));
  if (!before || changed.has("title") || changed.has("update") || changed.has("postmortem")) {
    st.deleteSearch.run(incidentId);
    st.insertSearch.run(incidentId, incident.title, incident.updates.map((u) => u.body).join("\n"), incident.postmortem?.body ?? "");
  }
  if (!before || changed.has("components")) {
    st.deleteComponents.run(incidentId);
    for (const c of incident.components) st.insertComponent.run(incidentId, ctx.vendor.id, c.id, c.name);
  }
  if (incident.postmortem && (!before || !before.postmortem)) st.markPostmortem.run(ctx.observedAt, incidentId);
  const wasOver = before !== undefined && (before.resolvedAt !== null || isResolvedStatus(before.status));
  if (wasOver && kinds.some((k) => EDIT_KINDS.has(k))) st.countEditAfterResolution.run(incidentId);
}

/**
 * Turn one parsed snapshot into versions: a new version for each incident whose content or
 * presence changed, nothing for the rest. Runs inside the caller's transaction.
 * Returns the number of versions appended.
 */
export function applySnapshot(db: RedlineDb, ctx: SnapshotContext, parsed: readonly Incident[]): number {
  const st = writeStatements(db.$client);
  const seen = new Map<string, { incident: Incident; hash: string }>();
  for (const raw of keepFirstById(parsed)) {
    const incident = canonicalizeIncident(raw);
    seen.set(incident.id, { incident, hash: hashIncident(incident) });
  }
  const rows = new Map<string, IncidentRow>();
  if (seen.size > 0) {
    for (const r of st.incidentsByProviderIds.all(ctx.vendor.id, JSON.stringify([...seen.keys()]))) rows.set(r.providerId, r);
  }

  let added = 0;
  const untouched: number[] = [];
  const carries = ctx.carry?.carries;
  const lists = ctx.presence.kind !== "single";
  for (const { incident: observed, hash } of seen.values()) {
    const row = rows.get(observed.id) ?? null;
    if (row === null) {
      if (ctx.carry?.createsIncidents === false) continue;
      const state: IncidentState = { incident: observed, presence: "listed" };
      appendVersion(st, ctx, null, null, state, hash, diffStates(null, state));
      added += 1;
      continue;
    }
    if (row.presence === "listed" && row.observedHash === hash && row.source === ctx.source) {
      untouched.push(row.id);
      continue;
    }
    const previous = lastState(st, row.id);
    const incident = carries ? canonicalizeIncident(mergeCarried(previous.incident, observed, carries)) : observed;
    const state: IncidentState = { incident, presence: lists ? "listed" : previous.presence };
    const changes = diffStates(previous, state);
    if (changes.length === 0) {
      if (lists) st.touchObserved.run(hash, ctx.source, ctx.observedAt, row.id);
      continue;
    }
    appendVersion(st, ctx, row, previous, state, hash, changes);
    added += 1;
  }
  if (untouched.length > 0) st.touchSeen.run(ctx.observedAt, JSON.stringify(untouched));
  if (lists) added += recordAbsences(st, ctx, seen);
  return added;
}

/** Versions for incidents this source listed before and does not list now. */
function recordAbsences(
  st: WriteStatements,
  ctx: SnapshotContext,
  seen: ReadonlyMap<string, { incident: Incident; hash: string }>,
): number {
  const listed = st.incidentsListedBy.all(ctx.vendor.id, ctx.source);
  const absent = listed.filter((r) => !seen.has(r.providerId)).map((row) => ({ row, before: lastState(st, row.id) }));
  if (absent.length === 0) return 0;
  const verdicts = judgeAbsences(
    ctx.presence,
    absent.map(({ row, before }) => ({ key: row.providerId, recency: recencyOf(before.incident, ctx.presence) })),
    [...seen.values()].map((s) => recencyOf(s.incident, ctx.presence)),
    listed.length,
  );
  for (const { row, before } of absent) {
    const verdict: Presence = verdicts.get(row.providerId) ?? "left-feed";
    const state: IncidentState = { incident: before.incident, presence: verdict };
    appendVersion(st, ctx, row, before, state, row.observedHash, diffStates(before, state));
  }
  return absent.length;
}
