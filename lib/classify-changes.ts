import type { Change } from "@/lib/change";
import { type ChangeKindName, sortKinds } from "@/lib/change-kinds";
import { isResolvedStatus, rankImpact, type Impact } from "@/lib/incident";
import { sameInstant } from "@/lib/diff-incidents";

/**
 * The change kinds of one version, from its field changes. The first version of an incident is
 * "incident-new" and nothing else: everything in it is new, none of it an edit.
 */
export function classifyChanges(changes: readonly Change[], options: { isFirst: boolean }): ChangeKindName[] {
  if (options.isFirst) return ["incident-new"];
  const kinds = new Set<ChangeKindName>();
  const becameResolved = changes.some(
    (c) => c.field === "status" && isResolvedStatus(c.after) && !isResolvedStatus(c.before),
  );
  for (const change of changes) {
    switch (change.field) {
      case "title":
        kinds.add("title-changed");
        break;
      case "status":
        kinds.add("status-changed");
        if (becameResolved) kinds.add("incident-resolved");
        break;
      case "impact": {
        const before = rankImpact(change.before as Impact | null);
        const after = rankImpact(change.after as Impact | null);
        if (after > before) kinds.add("impact-escalated");
        else if (after < before) kinds.add("impact-downgraded");
        break;
      }
      case "startedAt":
        kinds.add("timing-changed");
        break;
      case "resolvedAt":
        // An end time that appears with the resolution is the resolution, not a correction.
        if (!(change.kind === "added" && becameResolved)) kinds.add("timing-changed");
        break;
      case "scheduledFor":
      case "scheduledUntil":
        kinds.add("rescheduled");
        break;
      case "components":
        kinds.add("components-changed");
        break;
      case "update":
        if (change.kind === "added") kinds.add("update-posted");
        else if (change.kind === "removed") kinds.add("update-removed");
        else if (change.before && change.after) {
          if (change.before.body !== change.after.body || change.before.status !== change.after.status) {
            kinds.add("update-edited");
          }
          if (!sameInstant(change.before.displayAt, change.after.displayAt)) kinds.add("update-backdated");
          else if (!sameInstant(change.before.createdAt, change.after.createdAt)) kinds.add("update-edited");
        }
        break;
      case "postmortem":
        kinds.add(change.kind === "added" ? "postmortem-published" : "postmortem-edited");
        break;
      case "presence":
        if (change.after === "listed") kinds.add("incident-reappeared");
        else if (change.after === "deleted") kinds.add("incident-deleted");
        else kinds.add("incident-left-feed");
        break;
      case "url":
        break;
    }
  }
  return sortKinds(kinds);
}
