import type { Change, ChangeField } from "@/lib/change";
import { CHANGE_KIND_NAMES, type ChangeKindName } from "@/lib/change-kinds";
import { classifyChanges } from "@/lib/derive/classify-changes";

/**
 * Where each field's change sits on a change page: what the incident is (impact, status, title,
 * kind, timing) before what was said about it (updates), and the long write-up last.
 */
const FIELD_RANK: Record<ChangeField, number> = {
  impact: 0,
  status: 1,
  title: 2,
  kind: 3,
  startedAt: 4,
  resolvedAt: 5,
  scheduledFor: 6,
  scheduledUntil: 7,
  presence: 8,
  components: 9,
  url: 10,
  update: 11,
  postmortem: 12,
};

const KIND_RANK = new Map(CHANGE_KIND_NAMES.map((kind, i) => [kind, i]));

/** The kinds one change contributes to its version, judged with the version's status change beside it. */
function kindsOf(change: Change, status: Change | undefined): ChangeKindName[] {
  if (change.field !== "resolvedAt") return classifyChanges([change], { isFirst: false });
  // An end time's kind depends on the status change beside it; the status's own kinds are not its.
  return classifyChanges(status ? [change, status] : [change], { isFirst: false }).filter((k) => k === "timing-changed");
}

function bestRank(kinds: readonly ChangeKindName[]): number {
  return Math.min(CHANGE_KIND_NAMES.length, ...kinds.map((k) => KIND_RANK.get(k) ?? CHANGE_KIND_NAMES.length));
}

/**
 * A version's changes in the order a reader needs them: the change behind the version's headline
 * kind first (the one the page is titled with), then the rest by field significance; among
 * updates, edits and removals of what was said before newly posted ones. Stable otherwise.
 * On a first version everything is new, so only the field order applies.
 */
export function orderChanges(changes: readonly Change[], options: { isFirst: boolean } = { isFirst: false }): Change[] {
  const status = changes.find((c) => c.field === "status");
  const ranked = changes.map((change, index) => {
    const kinds = options.isFirst ? [] : kindsOf(change, status);
    return { change, index, kinds, kindRank: bestRank(kinds) };
  });
  const headline = options.isFirst ? CHANGE_KIND_NAMES.length : Math.min(CHANGE_KIND_NAMES.length, ...ranked.map((r) => r.kindRank));
  const isHeadline = (r: (typeof ranked)[number]) => headline < CHANGE_KIND_NAMES.length && r.kindRank === headline;
  return ranked
    .sort((a, b) => {
      const lead = Number(isHeadline(b)) - Number(isHeadline(a));
      if (lead !== 0) return lead;
      const field = FIELD_RANK[a.change.field] - FIELD_RANK[b.change.field];
      if (field !== 0) return field;
      if (a.change.field === "update") {
        const kind = a.kindRank - b.kindRank;
        if (kind !== 0) return kind;
      }
      return a.index - b.index;
    })
    .map((r) => r.change);
}
