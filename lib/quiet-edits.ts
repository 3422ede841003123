import type { ChangeKindName } from "@/lib/change-kinds";
import { isResolvedStatus } from "@/lib/incident";

/**
 * The edits a vendor makes to what it had already said, which a status page never shows:
 * rewritten, removed or backdated updates, a lowered impact, moved times, postmortems published
 * or edited, deleted incidents. The home page lists these by default.
 */
export const QUIET_EDIT_KINDS: readonly ChangeKindName[] = [
  "incident-deleted", "impact-downgraded", "update-edited", "update-removed", "update-backdated", "timing-changed", "postmortem-published", "postmortem-edited",
];

const QUIET = new Set<ChangeKindName>(QUIET_EDIT_KINDS);

/** Whether a version changed something the vendor had already published (at least one quiet kind). */
export function isQuietEdit(kinds: readonly ChangeKindName[]): boolean {
  return kinds.some((k) => QUIET.has(k));
}

export type HomeTab = "quiet" | "degradations" | "new" | "all";

/**
 * The home page's tabs: what each lists, in the order shown. Undefined kinds means every change;
 * "degradations" lists quiet degradations, which are no changes of an incident.
 */
export const HOME_TABS: ReadonlyArray<{ id: HomeTab; label: string; kinds: readonly ChangeKindName[] | undefined }> = [
  { id: "quiet", label: "Quiet edits", kinds: QUIET_EDIT_KINDS },
  { id: "degradations", label: "Quiet degradations", kinds: undefined },
  { id: "new", label: "New incidents", kinds: ["incident-new"] },
  { id: "all", label: "Every change", kinds: undefined },
];

/**
 * What the home page lists: kinds picked in the filter win (tab "custom"); otherwise the tab asked
 * for, the quiet edits when none is.
 */
export function homeSelection(query: { show?: HomeTab; kind?: readonly ChangeKindName[] }): { tab: HomeTab | "custom"; kinds: readonly ChangeKindName[] | undefined } {
  if (query.kind && query.kind.length > 0) return { tab: "custom", kinds: query.kind };
  const tab = HOME_TABS.find((t) => t.id === (query.show ?? "quiet")) ?? HOME_TABS[0];
  return tab ? { tab: tab.id, kinds: tab.kinds } : { tab: "all", kinds: undefined };
}

/** Open or resolved, as a reader reads a list item; null when the vendor never stated a status. */
export function openStateOf(status: string | null): "open" | "resolved" | null {
  if (status === null || status === "") return null;
  return isResolvedStatus(status) ? "resolved" : "open";
}
