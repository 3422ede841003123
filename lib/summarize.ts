import type { Change, UpdateChange } from "@/lib/change";
import type { ChangeKindName } from "@/lib/change-kinds";
import { excerpt, formatDuration, formatList, formatSignedSpan, formatSpan, formatUtcMinute, msBetween } from "@/lib/format";
import { sameInstant } from "@/lib/diff-incidents";
import type { Incident, IncidentState, IncidentUpdate } from "@/lib/incident";
import { vendorMarkdownToText } from "@/lib/render/vendor-markdown";

export const MACHINE_SUMMARY_NOTICE = "Machine-written from the diff below; check the diff before relying on it.";

/** Raise with any change to the wording below: text an older version wrote is rendered again on read. */
export const SUMMARY_VERSION = 2;

export interface SummaryInput {
  vendorName: string;
  state: IncidentState;
  previous: IncidentState | null;
  changes: readonly Change[];
  kinds: readonly ChangeKindName[];
  observedAt: string;
}

/**
 * One deterministic paragraph: what this version changed, most significant first, then what the
 * incident is. Lists cut it short, so the change leads and the sentence every version shares trails.
 */
export function summarizeVersion(input: SummaryInput): string {
  return [...describeChanges(input), describeIncident(input.vendorName, input.state.incident)].join(" ");
}

/** Only what this version changed, most significant first, for one line in a list of changes. */
export function headlineVersion(input: SummaryInput): string {
  const changes = describeChanges(input);
  return input.kinds.includes("incident-new") ? [describeNew(input.state.incident), ...changes].join(" ") : changes.join(" ");
}

/** A version's derived text, and the version of its wording. */
export interface Summarizer {
  version: number;
  summarize(input: SummaryInput): string;
  headline(input: SummaryInput): string;
}

export const currentSummarizer: Summarizer = { version: SUMMARY_VERSION, summarize: summarizeVersion, headline: headlineVersion };

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

/** "GitHub reported a major incident affecting Actions and Pages, starting at … (42 min)." */
export function describeIncident(vendorName: string, incident: Incident): string {
  const noun = incident.kind === "maintenance" ? "maintenance" : "incident";
  const impact = incident.impact && incident.impact !== "maintenance" && incident.impact !== "none" ? `${incident.impact} ` : "";
  const what = incident.kind === "maintenance" ? `${vendorName} scheduled maintenance` : `${vendorName} reported ${article(impact || noun)} ${impact}${noun}`;
  const components = incident.components.map((c) => c.name);
  const affecting = components.length > 0 ? ` affecting ${formatList(components)}` : "";
  let when = "";
  if (incident.kind === "maintenance" && incident.scheduledFor) {
    when = `, scheduled for ${formatUtcMinute(incident.scheduledFor)}`;
    if (incident.scheduledUntil) when += ` to ${formatUtcMinute(incident.scheduledUntil)}`;
  } else if (incident.startedAt) {
    when = `, starting at ${formatUtcMinute(incident.startedAt)}`;
  }
  if (incident.resolvedAt) {
    when += ` and resolved at ${formatUtcMinute(incident.resolvedAt)}`;
    if (incident.startedAt) when += ` (${formatDuration(msBetween(incident.startedAt, incident.resolvedAt))})`;
  } else if (incident.status) {
    when += `; status ${incident.status.replace(/_/g, " ")}`;
  }
  return `${what}${affecting}${when}.`;
}

/** "New major incident." / "New maintenance." */
function describeNew(incident: Incident): string {
  if (incident.kind === "maintenance") return "New maintenance.";
  const impact = incident.impact && incident.impact !== "maintenance" && incident.impact !== "none" ? `${incident.impact} ` : "";
  return `New ${impact}incident.`;
}

function afterResolution(previous: Incident | null, observedAt: string): string {
  const resolvedAt = previous?.resolvedAt;
  if (!resolvedAt || Date.parse(observedAt) <= Date.parse(resolvedAt)) return "";
  return ` ${formatSpan(msBetween(resolvedAt, observedAt))} after resolution`;
}

function updateLabel(u: IncidentUpdate): string {
  const status = u.status ? `${u.status.replace(/_/g, " ")} ` : "";
  const at = u.displayAt ?? u.createdAt;
  return `the ${status}update${at ? ` of ${formatUtcMinute(at)}` : ""}`;
}

function describeUpdateChanges(changes: readonly UpdateChange[], observedAt: string): string[] {
  const out: string[] = [];
  const added = changes.filter((c) => c.kind === "added");
  const first = added.length === 1 ? added[0]?.after : undefined;
  if (first) out.push(`New update${first.status ? ` (${first.status.replace(/_/g, " ")})` : ""}: "${excerpt(vendorMarkdownToText(first.body))}"`);
  else if (added.length > 1) out.push(`${added.length} new updates were posted.`);
  for (const c of changes) {
    if (c.kind === "removed" && c.before) out.push(`${capitalize(updateLabel(c.before))} was removed.`);
    if (c.kind !== "changed" || !c.before || !c.after) continue;
    const posted = c.before.displayAt ?? c.before.createdAt;
    const later = posted ? `, ${formatSignedSpan(msBetween(posted, observedAt), { after: "after it was posted", before: "before the time it shows" })}` : "";
    if (c.before.body !== c.after.body) out.push(`${capitalize(updateLabel(c.before))} was rewritten${later}.`);
    else if (c.before.status !== c.after.status) {
      out.push(`${capitalize(updateLabel(c.before))} was relabelled ${c.after.status ? humanize(c.after.status) : "without a status"}.`);
    }
    if (!sameInstant(c.before.displayAt, c.after.displayAt)) {
      out.push(`An update's time was moved from ${formatUtcMinute(c.before.displayAt)} to ${formatUtcMinute(c.after.displayAt)}.`);
    }
  }
  return out;
}

/** A vendor's status value as words: "service_disruption" → "service disruption". */
function humanize(status: string | null): string {
  return status === null ? "none" : status.replace(/_/g, " ");
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function describeMove(label: string, before: string | null, after: string | null): string {
  if (before === null) return `${label} set to ${formatUtcMinute(after)}.`;
  if (after === null) return `${label} (${formatUtcMinute(before)}) removed.`;
  const ms = msBetween(before, after);
  return `${label} moved from ${formatUtcMinute(before)} to ${formatUtcMinute(after)} (${formatSpan(ms)} ${ms < 0 ? "earlier" : "later"}).`;
}

/** Which changes a reader needs first: the incident's existence, its impact and state, then its wording and times. */
const SIGNIFICANCE: Record<Change["field"], number> = {
  presence: 0, impact: 1, status: 2, kind: 3, title: 4, startedAt: 5, resolvedAt: 5, scheduledFor: 5, scheduledUntil: 5,
  components: 6, postmortem: 7, update: 8, url: 9,
};

function describeChanges({ state, previous, changes, kinds, observedAt }: SummaryInput): string[] {
  if (kinds.includes("incident-new")) {
    const start = state.incident.startedAt ?? state.incident.scheduledFor;
    if (!start) return ["First archived version."];
    const ms = msBetween(start, observedAt);
    return [`First archived ${formatSignedSpan(ms, { after: "after it started", before: "before its start" })}.`];
  }
  const prev = previous?.incident ?? null;
  const ranked: Array<{ rank: number; text: string }> = [];
  const updateChanges: UpdateChange[] = [];
  for (const c of changes) {
    const say = (text: string) => ranked.push({ rank: SIGNIFICANCE[c.field], text });
    switch (c.field) {
      case "kind":
        say(`Relabelled as ${article(c.after ?? "incident")} ${c.after ?? "incident"}.`);
        break;
      case "title":
        say(`Renamed from "${c.before ?? ""}" to "${c.after ?? ""}".`);
        break;
      case "status":
        say(`${kinds.includes("incident-reopened") ? "Reopened: status" : "Status"} changed from ${humanize(c.before)} to ${humanize(c.after)}.`);
        break;
      case "impact": {
        const verb = kinds.includes("impact-downgraded") ? "lowered" : kinds.includes("impact-escalated") ? "raised" : "changed";
        say(`Impact ${verb} from ${c.before ?? "none"} to ${c.after ?? "none"}${afterResolution(prev, observedAt)}.`);
        break;
      }
      case "url":
        say("The incident's link changed.");
        break;
      case "startedAt":
        say(describeMove("Start", c.before, c.after));
        break;
      case "resolvedAt":
        if (c.kind === "changed" || (c.kind === "removed" && !kinds.includes("incident-reopened"))) say(describeMove("End", c.before, c.after));
        break;
      case "scheduledFor":
        say(describeMove("Scheduled start", c.before, c.after));
        break;
      case "scheduledUntil":
        say(describeMove("Scheduled end", c.before, c.after));
        break;
      case "components": {
        const before = new Set((c.before ?? []).map((x) => x.name));
        const after = new Set((c.after ?? []).map((x) => x.name));
        const added = [...after].filter((n) => !before.has(n));
        const removed = [...before].filter((n) => !after.has(n));
        const parts = [added.length ? `added ${formatList(added)}` : "", removed.length ? `removed ${formatList(removed)}` : ""];
        say(`Components ${parts.filter(Boolean).join("; ") || "renamed"}.`);
        break;
      }
      case "update":
        updateChanges.push(c);
        break;
      case "postmortem": {
        if (c.kind === "added") {
          const from = prev?.resolvedAt ?? state.incident.resolvedAt;
          const at = c.after?.publishedAt ?? observedAt;
          say(from ? `Postmortem published ${formatSignedSpan(msBetween(from, at), { after: "after resolution", before: "before resolution" })}.` : "Postmortem published.");
        } else if (c.kind === "removed") say("The postmortem was taken down.");
        else {
          const since = c.before?.publishedAt;
          say(since ? `Postmortem edited ${formatSignedSpan(msBetween(since, observedAt), { after: "after publication", before: "before its stated publication" })}.` : "Postmortem edited.");
        }
        break;
      }
      case "presence":
        if (c.after === "deleted") say("Removed from the feed while older incidents are still listed: deleted by the vendor.");
        else if (c.after === "left-feed") say("No longer listed in the feed.");
        else say("Listed again after it had left the feed.");
        break;
    }
  }
  const out = [...ranked].sort((a, b) => a.rank - b.rank).map((r) => r.text);
  out.push(...describeUpdateChanges(updateChanges, observedAt));
  return out.length > 0 ? out : ["No visible change."];
}
