import type { Change } from "@/lib/change";
import { type ChangeKindName, sortKinds } from "@/lib/change-kinds";
import { sameTime } from "@/lib/derive/source-profile";
import { extensionOfUpdate } from "@/lib/derive/update-extension";
import { isResolvedStatus, rankImpact, type Impact } from "@/lib/incident";
import { postmortemUpdateChange } from "@/lib/postmortem-update";

/**
 * The change kinds of one version, from its field changes. The first version of an incident is
 * "incident-new" and nothing else: everything in it is new, none of it an edit. What a newly added
 * source first says of an incident already archived is "new-source-report" and nothing else: it
 * tells what happened before, at the times it gives, not what the vendor did at that capture.
 */
export function classifyChanges(changes: readonly Change[], options: { isFirst: boolean; newSource?: boolean }): ChangeKindName[] {
  if (options.isFirst) return ["incident-new"];
  if (options.newSource) return ["new-source-report"];
  const kinds = new Set<ChangeKindName>();
  const status = changes.find((c) => c.field === "status");
  const becameResolved = status !== undefined && isResolvedStatus(status.after as string | null) && !isResolvedStatus(status.before as string | null);
  const reopened = status !== undefined && isResolvedStatus(status.before as string | null) && !isResolvedStatus(status.after as string | null);
  // A report posted as an update and read as the postmortem too (Google Cloud) changes once: as the postmortem.
  const repeatsPostmortem = postmortemUpdateChange(changes);
  for (const change of changes) {
    if (change === repeatsPostmortem) continue;
    switch (change.field) {
      case "kind":
        kinds.add("relabelled");
        break;
      case "title":
        kinds.add("title-changed");
        break;
      case "status":
        kinds.add("status-changed");
        if (becameResolved) kinds.add("incident-resolved");
        if (reopened) kinds.add("incident-reopened");
        break;
      case "impact": {
        const before = rankImpact(change.before as Impact | null);
        const after = rankImpact(change.after as Impact | null);
        if (before === null || after === null) kinds.add("impact-changed");
        else if (after > before) kinds.add("impact-escalated");
        else if (after < before) kinds.add("impact-downgraded");
        break;
      }
      case "startedAt":
        kinds.add("timing-changed");
        break;
      case "resolvedAt":
        // An end time that appears with the resolution is the resolution, and one that goes with a
        // reopening is the reopening: neither is a correction.
        if (!(change.kind === "added" && becameResolved) && !(change.kind === "removed" && reopened)) kinds.add("timing-changed");
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
          if (change.before.status !== change.after.status) kinds.add("update-edited");
          else if (change.before.body !== change.after.body) {
            kinds.add(extensionOfUpdate(change.before, change.after) ? "update-extended" : "update-edited");
          }
          if (!sameTime(change.before.displayAt, change.after.displayAt)) kinds.add("update-backdated");
          else if (!sameTime(change.before.createdAt, change.after.createdAt)) kinds.add("update-edited");
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
