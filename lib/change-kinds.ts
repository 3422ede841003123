import { z } from "zod";

/**
 * What a version did, in the order a reader cares about. A version can have several kinds.
 * The descriptions are the reference docs/data-model.md, the pages and the API repeat.
 */
export const CHANGE_KIND_INFO = {
  "incident-deleted": { label: "Incident deleted", description: "The incident vanished from a feed that should still list it (older incidents are still there): the vendor deleted it." },
  "incident-reappeared": { label: "Incident reappeared", description: "An incident that had left the feed, or been deleted, is listed again." },
  "incident-reopened": { label: "Incident reopened", description: "An incident that had been resolved is open again." },
  "impact-downgraded": { label: "Impact downgraded", description: "The stated impact was lowered, for example major to minor." },
  "update-edited": { label: "Update edited", description: "The text or status of an update already posted was changed: words taken out, replaced or inserted inside it. Text only added after or before it is an extension." },
  "update-removed": { label: "Update removed", description: "An update that had been posted is gone." },
  "update-backdated": { label: "Update backdated", description: "The time shown on an update already posted was moved." },
  "timing-changed": { label: "Timing changed", description: "The incident's start or end time was moved after it had been stated." },
  "postmortem-published": { label: "Postmortem published", description: "A postmortem (root-cause write-up) appeared." },
  "postmortem-edited": { label: "Postmortem edited", description: "The postmortem's text or date changed after publication, or it was taken down." },
  "title-changed": { label: "Title changed", description: "The incident was renamed." },
  "relabelled": { label: "Relabelled", description: "An incident was relabelled as a maintenance, or a maintenance as an incident." },
  "impact-escalated": { label: "Impact escalated", description: "The stated impact was raised, for example minor to major." },
  "impact-changed": { label: "Impact changed", description: "The impact changed to or from maintenance, or was stated or withdrawn: not a step on the severity scale." },
  "incident-resolved": { label: "Incident resolved", description: "The status moved to resolved (or completed, for maintenance)." },
  "rescheduled": { label: "Rescheduled", description: "A maintenance window's scheduled start or end moved." },
  "components-changed": { label: "Components changed", description: "The set of affected components or services changed (a reorder is not a change)." },
  "status-changed": { label: "Status changed", description: "The incident's status changed (investigating, identified, monitoring, resolved …)." },
  "update-extended": { label: "Update extended", description: "Text was added after or before an update already posted, its earlier text kept whole: a sentence or paragraph appended, as feeds that keep an incident's story in one entry do. Nothing said was taken back, so it is not a quiet edit." },
  "update-posted": { label: "Update posted", description: "A new update was posted." },
  "incident-left-feed": { label: "Left the feed", description: "The incident is no longer listed where that is expected (resolved incidents leave an active-only feed; old ones age out of a most-recent list)." },
  "new-source-report": { label: "Reported by a new source", description: "A source added to the vendor later stated, at its first capture, what it knows of an incident already archived: it happened at the times that source gives, not when Redline first saw it." },
  "incident-new": { label: "New incident", description: "The first version Redline archived of this incident." },
} as const;

export type ChangeKindName = keyof typeof CHANGE_KIND_INFO;
export const CHANGE_KIND_NAMES = Object.keys(CHANGE_KIND_INFO) as ChangeKindName[];
export const changeKindNameSchema = z.enum(CHANGE_KIND_NAMES as [ChangeKindName, ...ChangeKindName[]]);

/** Kinds sorted by how much a reader would want to know them: the first one heads the page. */
export function sortKinds(kinds: Iterable<ChangeKindName>): ChangeKindName[] {
  const set = new Set(kinds);
  return CHANGE_KIND_NAMES.filter((k) => set.has(k));
}

export function changeKindLabel(kind: ChangeKindName): string {
  return CHANGE_KIND_INFO[kind].label;
}

/** Kinds that rewrite what a vendor had already said: counted as edits when made after resolution. */
export const EDIT_KINDS: ReadonlySet<ChangeKindName> = new Set<ChangeKindName>([
  "impact-downgraded", "impact-escalated", "impact-changed", "update-edited", "update-removed", "update-backdated",
  "timing-changed", "title-changed", "relabelled", "postmortem-edited",
]);

/**
 * What a newly added source reports of incidents already archived is not news of that moment: such a
 * version has this kind alone, so lists of picked kinds (quiet edits, new incidents, kind feeds) leave
 * it out, and it notifies no one.
 */
export const NEW_SOURCE_REPORT: ChangeKindName = "new-source-report";

export function isNewSourceReport(kinds: readonly string[]): boolean {
  return kinds.includes(NEW_SOURCE_REPORT);
}

/** The kinds a subscription may filter on: every kind that notifies. */
export const NOTIFYING_KIND_NAMES: readonly ChangeKindName[] = CHANGE_KIND_NAMES.filter((k) => k !== NEW_SOURCE_REPORT);

/** The kind a change page is headed with: "New major incident", "Impact downgraded" … */
export function headingKindLabel(kinds: readonly ChangeKindName[], incident: { impact: string | null; kind: string }): string {
  const first = kinds[0];
  if (first === undefined) return "Other change";
  if (first !== "incident-new") return changeKindLabel(first);
  const impact = incident.impact && incident.impact !== "none" && incident.impact !== "maintenance" ? `${incident.impact} ` : "";
  return incident.kind === "maintenance" ? "New maintenance" : `New ${impact}incident`;
}

/**
 * Each kind's code in version_kinds (migration 0019). Append only: a stored code never changes
 * meaning, whatever order the kinds above are shown in.
 */
export const CHANGE_KIND_CODES: readonly ChangeKindName[] = [
  "incident-deleted", "incident-reappeared", "incident-reopened", "impact-downgraded", "update-edited", "update-removed",
  "update-backdated", "timing-changed", "postmortem-published", "postmortem-edited", "title-changed", "relabelled",
  "impact-escalated", "impact-changed", "incident-resolved", "rescheduled", "components-changed", "status-changed",
  "update-posted", "incident-left-feed", "incident-new", "new-source-report", "update-extended",
];

const CODE_OF = new Map(CHANGE_KIND_CODES.map((kind, code) => [kind, code]));

/** The stored code of a kind; undefined for a name that is no kind (an index never holds one). */
export function changeKindCode(kind: string): number | undefined {
  return CODE_OF.get(kind as ChangeKindName);
}
