import { textSimilarity } from "@/lib/diff-incidents";
import type { UpdateProvenance, ViewUpdate } from "@/lib/derive/incident-record";
import { coarser, sameText, sameTime, type Statement, type UpdateStatements } from "@/lib/derive/source-profile";
import type { IncidentUpdate } from "@/lib/incident";
import { isDerivedUpdateId } from "@/lib/update-identity";

/** Below this word overlap two updates are different updates, not one edited. */
const EDIT_SIMILARITY = 0.5;

export interface UpdateMatches {
  /** Per observed update: the merged identity it is, or null for a new update. */
  mergedIds: Array<string | null>;
  /** Per observed update: the entry of the source's last view it continues, or null. */
  viewEntries: Array<ViewUpdate | null>;
}

interface Side {
  time: string | null;
  status: string | null;
  body: string;
  timeAt: Statement;
  textAt: Statement;
}

type Score = (a: Side, b: Side) => number | null;

function statusFits(a: Side, b: Side): boolean {
  return a.status === null || b.status === null || a.status === b.status;
}

function timeOf(u: IncidentUpdate): string | null {
  return u.displayAt ?? u.createdAt;
}

/** Rounds of matching, strictest first; a later round only sees what earlier ones left. */
const SAME: Score = (a, b) => (sameTime(a.time, b.time, coarser(a.timeAt, b.timeAt)) && statusFits(a, b) && sameText(a.body, b.body, coarser(a.textAt, b.textAt)) ? 3 : null);
const EDITED: Score = (a, b) => {
  if (!sameTime(a.time, b.time, coarser(a.timeAt, b.timeAt)) || !statusFits(a, b)) return null;
  const similarity = textSimilarity(a.body, b.body);
  return similarity >= EDIT_SIMILARITY ? 1 + similarity : null;
};
const MOVED: Score = (a, b) => (statusFits(a, b) && sameText(a.body, b.body, coarser(a.textAt, b.textAt)) ? 2 : null);
const MOVED_AND_EDITED: Score = (a, b) => {
  if (a.status !== b.status) return null;
  const similarity = textSimilarity(a.body, b.body);
  return similarity >= EDIT_SIMILARITY ? similarity : null;
};
/** The same time and status with any text: the update was rewritten (a source without ids can say no more). */
const REWRITTEN: Score = (a, b) => (sameTime(a.time, b.time, coarser(a.timeAt, b.timeAt)) && statusFits(a, b) ? 1 : null);

const OWN_ROUNDS = [SAME, EDITED, MOVED, MOVED_AND_EDITED, REWRITTEN];
const CROSS_ROUNDS = [SAME, EDITED, MOVED];

/** Greedy one-to-one assignment by score; ties go to the earlier pair, so matching never depends on chance. */
function assign(leftOpen: Set<number>, rightOpen: Set<number>, score: (l: number, r: number) => number | null): Array<[number, number]> {
  const pairs: Array<{ l: number; r: number; s: number }> = [];
  for (const l of leftOpen) {
    for (const r of rightOpen) {
      const s = score(l, r);
      if (s !== null) pairs.push({ l, r, s });
    }
  }
  pairs.sort((x, y) => y.s - x.s || x.l - y.l || x.r - y.r);
  const out: Array<[number, number]> = [];
  for (const { l, r } of pairs) {
    if (!leftOpen.has(l) || !rightOpen.has(r)) continue;
    leftOpen.delete(l);
    rightOpen.delete(r);
    out.push([l, r]);
  }
  return out;
}

/**
 * Which merged update each update of a new observation is. Vendor ids decide where both sides
 * have them. Otherwise an update continues the one the same source showed last time (same time,
 * status and text first; then an edit, a moved time, a rewrite), and an update this source shows
 * for the first time may be one another source already stated (same time and text at the coarser
 * of their precisions): the same update from JSON and from a feed is one update.
 */
export function matchUpdates(
  observed: readonly IncidentUpdate[],
  statements: UpdateStatements,
  view: readonly ViewUpdate[] | null,
  merged: readonly IncidentUpdate[],
  provenance: Readonly<Record<string, UpdateProvenance>>,
): UpdateMatches {
  const mergedIds: Array<string | null> = observed.map(() => null);
  const viewEntries: Array<ViewUpdate | null> = observed.map(() => null);
  const ownStatus = (status: string | null) => (status === statements.keptStatus ? null : status);
  const obsSides: Side[] = observed.map((u) => ({ time: timeOf(u), status: ownStatus(u.status), body: u.body, timeAt: statements.time, textAt: statements.text }));
  const mergedById = new Map(merged.map((u) => [u.id, u]));
  const viewList = view ?? [];
  const claimed = new Set<string>();
  const open = new Set<number>();

  const viewByKey = new Map(viewList.map((e) => [e.id, e]));
  observed.forEach((u, i) => {
    if (isDerivedUpdateId(u.id)) {
      open.add(i);
      return;
    }
    const entry = viewByKey.get(u.id);
    viewEntries[i] = entry ?? null;
    const mergedId = entry ? entry.mergedId : u.id;
    if (mergedById.has(mergedId) && !claimed.has(mergedId)) {
      mergedIds[i] = mergedId;
      claimed.add(mergedId);
    } else if (entry === undefined) open.add(i);
  });

  // A source without ids: its own last view, by content.
  const viewOpen = new Set(viewList.map((_, j) => j).filter((j) => isDerivedUpdateId(viewList[j]?.id ?? "") && !claimed.has(viewList[j]?.mergedId ?? "")));
  const ownOpen = new Set([...open].filter((i) => isDerivedUpdateId(observed[i]?.id ?? "")));
  if (ownOpen.size > 0 && viewOpen.size > 0) {
    const viewSides: Side[] = viewList.map((e) => ({ time: timeOf(e), status: ownStatus(e.status), body: e.body, timeAt: statements.time, textAt: statements.text }));
    for (const round of OWN_ROUNDS) {
      for (const [i, j] of assign(ownOpen, viewOpen, (i, j) => round(obsSides[i] as Side, viewSides[j] as Side))) {
        const entry = viewList[j] as ViewUpdate;
        viewEntries[i] = entry;
        if (mergedById.has(entry.mergedId) && !claimed.has(entry.mergedId)) {
          mergedIds[i] = entry.mergedId;
          claimed.add(entry.mergedId);
        }
        open.delete(i);
      }
    }
  }

  // First sight by this source: another source's update, if one matches by content.
  const known = new Set(viewList.map((e) => e.mergedId));
  const crossOpen = new Set([...open].filter((i) => viewEntries[i] === null));
  const candidates = merged.filter((u) => !claimed.has(u.id) && !known.has(u.id));
  if (crossOpen.size > 0 && candidates.length > 0) {
    const mergedSides: Side[] = candidates.map((u) => {
      const p = provenance[u.id];
      return { time: timeOf(u), status: p?.status === null ? null : u.status, body: u.body, timeAt: p?.time ?? "exact", textAt: p?.text ?? "exact" };
    });
    const mergedOpen = new Set(candidates.map((_, k) => k));
    // Two vendor ids are two updates; only a side without one is matched by content.
    const byContent = (i: number, k: number) => isDerivedUpdateId(observed[i]?.id ?? "") || isDerivedUpdateId(candidates[k]?.id ?? "");
    for (const round of CROSS_ROUNDS) {
      for (const [i, k] of assign(crossOpen, mergedOpen, (i, k) => (byContent(i, k) ? round(obsSides[i] as Side, mergedSides[k] as Side) : null))) {
        const target = candidates[k] as IncidentUpdate;
        mergedIds[i] = target.id;
        claimed.add(target.id);
      }
    }
  }
  return { mergedIds, viewEntries };
}
