import { type Change, SCALAR_FIELDS, type ScalarField, changeKindOf } from "@/lib/change";
import type { Component, Incident, IncidentState, IncidentUpdate, Postmortem } from "@/lib/incident";
import { sameTime } from "@/lib/derive/source-profile";
import { isDerivedUpdateId } from "@/lib/update-identity";

const TIME_FIELDS = new Set<ScalarField>(["startedAt", "resolvedAt", "scheduledFor", "scheduledUntil"]);
/** Below this word overlap two id-less updates are different updates, not one edited. */
const EDIT_SIMILARITY = 0.5;

/**
 * Two timestamps name the same instant when they are less than a second apart: a vendor
 * re-saving a time at lower precision (Statuspage truncates …14.421Z to …14.000Z when an update
 * is edited) has not moved it.
 */
export function sameInstant(a: string | null, b: string | null): boolean {
  return sameTime(a, b);
}

function sameScalar(field: ScalarField, a: string | null, b: string | null): boolean {
  return TIME_FIELDS.has(field) ? sameInstant(a, b) : a === b;
}

function sameComponents(a: readonly Component[], b: readonly Component[]): boolean {
  return a.length === b.length && a.every((c, i) => c.id === b[i]?.id && c.name === b[i]?.name);
}

function samePostmortem(a: Postmortem | null, b: Postmortem | null): boolean {
  if (a === null || b === null) return a === b;
  return a.body === b.body && sameInstant(a.publishedAt, b.publishedAt);
}

export function sameUpdate(a: IncidentUpdate, b: IncidentUpdate): boolean {
  return (
    a.body === b.body &&
    a.status === b.status &&
    sameInstant(a.displayAt, b.displayAt) &&
    sameInstant(a.createdAt, b.createdAt)
  );
}

function words(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== ""));
}

/** Dice coefficient over the two texts' word sets: 1 for the same words, 0 for none shared. */
export function textSimilarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (wa.size === 0 && wb.size === 0) return 1;
  let shared = 0;
  for (const w of wa) if (wb.has(w)) shared += 1;
  return (2 * shared) / (wa.size + wb.size);
}

interface UpdatePairing {
  pairs: Array<[IncidentUpdate, IncidentUpdate]>;
  removed: IncidentUpdate[];
  added: IncidentUpdate[];
}

/**
 * Match the updates of two versions: by id, then (for ids Redline derived from a time) an
 * unmatched old update and new update with the same text, or mostly the same words and status,
 * are one update whose time moved.
 */
export function pairUpdates(before: readonly IncidentUpdate[], after: readonly IncidentUpdate[], byIdOnly = false): UpdatePairing {
  const afterById = new Map(after.map((u) => [u.id, u]));
  const pairs: Array<[IncidentUpdate, IncidentUpdate]> = [];
  const removed: IncidentUpdate[] = [];
  const matchedAfter = new Set<string>();
  for (const old of before) {
    const next = afterById.get(old.id);
    if (next) {
      pairs.push([old, next]);
      matchedAfter.add(next.id);
    } else removed.push(old);
  }
  let added = after.filter((u) => !matchedAfter.has(u.id));
  if (byIdOnly) return { pairs, removed, added };
  const candidates = removed.filter((u) => isDerivedUpdateId(u.id));
  if (candidates.length > 0 && added.some((u) => isDerivedUpdateId(u.id))) {
    const scored: Array<{ old: IncidentUpdate; next: IncidentUpdate; score: number }> = [];
    for (const old of candidates) {
      for (const next of added) {
        if (!isDerivedUpdateId(next.id)) continue;
        const score = old.body === next.body ? 2 : old.status === next.status ? textSimilarity(old.body, next.body) : 0;
        if (score >= EDIT_SIMILARITY) scored.push({ old, next, score });
      }
    }
    scored.sort((x, y) => y.score - x.score);
    const usedOld = new Set<IncidentUpdate>();
    const usedNew = new Set<IncidentUpdate>();
    for (const { old, next } of scored) {
      if (usedOld.has(old) || usedNew.has(next)) continue;
      usedOld.add(old);
      usedNew.add(next);
      pairs.push([old, next]);
    }
    added = added.filter((u) => !usedNew.has(u));
    return { pairs, removed: removed.filter((u) => !usedOld.has(u)), added };
  }
  return { pairs, removed, added };
}

function updateTime(u: IncidentUpdate): string {
  return u.displayAt ?? u.createdAt ?? "";
}

function diffUpdates(before: readonly IncidentUpdate[], after: readonly IncidentUpdate[], byIdOnly: boolean): Change[] {
  const { pairs, removed, added } = pairUpdates(before, after, byIdOnly);
  const changes: Array<Change & { field: "update" }> = [];
  for (const [old, next] of pairs) {
    if (!sameUpdate(old, next)) changes.push({ field: "update", kind: "changed", updateId: next.id, before: old, after: next });
  }
  for (const old of removed) changes.push({ field: "update", kind: "removed", updateId: old.id, before: old, after: null });
  for (const next of added) changes.push({ field: "update", kind: "added", updateId: next.id, before: null, after: next });
  const timeOf = (c: (typeof changes)[number]) => {
    const u = c.after ?? c.before;
    return u ? updateTime(u) : "";
  };
  return changes.sort((a, b) => (timeOf(a) < timeOf(b) ? -1 : timeOf(a) > timeOf(b) ? 1 : 0));
}

const EMPTY: Incident = {
  vendor: "", id: "", kind: "incident", title: "", status: null, impact: null, url: null,
  startedAt: null, resolvedAt: null, scheduledFor: null, scheduledUntil: null,
  components: [], updates: [], postmortem: null,
};

export interface DiffOptions {
  /**
   * "id": updates are one update only when their ids match (derivation already matched them);
   * "content" (the default) also pairs derived ids by text, for versions recorded before it did.
   */
  pairBy?: "id" | "content";
}

/**
 * Field-level changes from one version of an incident to the next (or from nothing, for the
 * first version). Both states must be canonical (see canonicalizeIncident).
 */
export function diffStates(before: IncidentState | null, after: IncidentState, options: DiffOptions = {}): Change[] {
  const a = before?.incident ?? EMPTY;
  const b = after.incident;
  const changes: Change[] = [];
  for (const field of SCALAR_FIELDS) {
    // Whether a first version is an incident or a maintenance is its heading, not a change.
    if (before === null && field === "kind") continue;
    const va = before === null && field === "title" ? null : a[field];
    const vb = b[field];
    if (sameScalar(field, va, vb)) continue;
    changes.push({ field, kind: changeKindOf(va, vb), before: va, after: vb });
  }
  if (!sameComponents(a.components, b.components)) {
    const ca = a.components.length > 0 ? a.components : null;
    const cb = b.components.length > 0 ? b.components : null;
    changes.push({ field: "components", kind: changeKindOf(ca, cb), before: ca, after: cb });
  }
  changes.push(...diffUpdates(a.updates, b.updates, options.pairBy === "id"));
  if (!samePostmortem(a.postmortem, b.postmortem)) {
    changes.push({ field: "postmortem", kind: changeKindOf(a.postmortem, b.postmortem), before: a.postmortem, after: b.postmortem });
  }
  if (before !== null && before.presence !== after.presence) {
    changes.push({ field: "presence", kind: "changed", before: before.presence, after: after.presence });
  }
  return changes;
}
