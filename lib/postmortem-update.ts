import type { Change, UpdateChange } from "@/lib/change";
import { formatUtcSecond } from "@/lib/format";
import type { IncidentUpdate, Postmortem } from "@/lib/incident";
import { statusLabel } from "@/lib/labels";

/**
 * Google Cloud posts its incident report as an incident's last update, and that update is read as
 * the postmortem too (scrapers/platforms/gcp.ts): one text, stored twice. Pages show it once, as
 * the postmortem, and say where the update went.
 */
export function carriesPostmortem(update: IncidentUpdate, postmortem: Postmortem | null): boolean {
  return postmortem !== null && update.body === postmortem.body;
}

type PostmortemChange = Extract<Change, { field: "postmortem" }>;

/** Whether an update's change is the postmortem's change over again: the report posted, edited or taken down. */
function repeats(u: UpdateChange, p: PostmortemChange): boolean {
  if (u.after && p.after) return u.after.body === p.after.body;
  if (!u.after && !p.after && u.before && p.before) return u.before.body === p.before.body;
  return false;
}

/** Of a version's changes, the update's that repeats its postmortem's change, if one does. */
export function postmortemUpdateChange(changes: readonly Change[]): UpdateChange | null {
  const postmortem = changes.find((c): c is PostmortemChange => c.field === "postmortem");
  if (!postmortem) return null;
  return changes.find((c): c is UpdateChange => c.field === "update" && repeats(c, postmortem)) ?? null;
}

/** "Posted as an update too (Available, 2026-03-08 12:00:00 UTC): the same text, shown once, here." */
export function describePostmortemUpdate(change: UpdateChange): string {
  const update = change.after ?? change.before;
  const verb = change.kind === "added" ? "Posted" : change.kind === "removed" ? "Removed" : "Edited";
  const said = [update?.status ? statusLabel(update.status) : null, update?.displayAt ? formatUtcSecond(update.displayAt) : null].filter(Boolean).join(", ");
  return `${verb} as an update too${said ? ` (${said})` : ""}: the same text, shown once, here.`;
}
