import type { ChangeKindName } from "@/lib/change-kinds";
import { paths } from "@/lib/incident-key";
import { changeItemId, type FeedTombstone } from "@/lib/render/feed";

export interface TombstoneCandidate {
  vendorSlug: string;
  vendorName: string;
  providerId: string;
  observedAt: string;
  kinds: readonly ChangeKindName[];
}

/** When each version of an incident was observed, if the incident is deleted now; else null. */
export type DeletedHistory = (vendorSlug: string, providerId: string) => readonly string[] | null;

/**
 * The RFC 6721 tombstones a feed carries: for each deletion among its changes whose incident is
 * still deleted, one per entry the incident had before it, so a reader drops them all. The deletion
 * itself stays an entry: it is the news.
 */
export function feedTombstones(origin: string, changes: readonly TombstoneCandidate[], history: DeletedHistory): FeedTombstone[] {
  const tombstones: FeedTombstone[] = [];
  const seen = new Set<string>();
  for (const change of changes) {
    if (!change.kinds.includes("incident-deleted")) continue;
    const incident = `${change.vendorSlug}\u0000${change.providerId}`;
    if (seen.has(incident)) continue;
    seen.add(incident);
    const observed = history(change.vendorSlug, change.providerId);
    if (!observed) continue;
    const deletedAt = change.observedAt;
    for (const at of observed) {
      if (at >= deletedAt) continue;
      tombstones.push({
        ref: changeItemId(change.vendorSlug, change.providerId, at),
        when: deletedAt,
        link: `${origin}${paths.incident(change.vendorSlug, change.providerId)}`,
        comment: `${change.vendorName} deleted this incident from its status page; Redline keeps its history.`,
      });
    }
  }
  return tombstones;
}
