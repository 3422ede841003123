import type { Change, ScalarChange, UpdateChange } from "@/lib/change";
import { orderChanges } from "@/lib/change-order";
import type { ChangeKindName } from "@/lib/change-kinds";
import { excerpt, formatDuration, formatList, formatSignedSpan, formatSpan, formatUtcMinute, msBetween } from "@/lib/format";
import { sameInstant } from "@/lib/diff-incidents";
import { extensionOfUpdate, type UpdateExtension } from "@/lib/derive/update-extension";
import type { Incident, IncidentState, IncidentUpdate } from "@/lib/incident";
import { impactLabel, presenceLabel, statusLabel } from "@/lib/labels";
import { postmortemUpdateChange } from "@/lib/postmortem-update";
import { vendorMarkdownToText } from "@/lib/render/vendor-markdown";

export const MACHINE_SUMMARY_NOTICE = "Machine-written from the diff below; check the diff before relying on it.";

/** Raise with any change to the wording below: text an older version wrote is rendered again on read. */
export const SUMMARY_VERSION = 5;

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
  const start = beganAt(incident);
  if (incident.kind === "maintenance" && incident.scheduledFor) {
    when = `, scheduled for ${formatUtcMinute(incident.scheduledFor)}`;
    if (incident.scheduledUntil) when += ` to ${formatUtcMinute(incident.scheduledUntil)}`;
  } else if (incident.startedAt) {
    when = `, starting at ${formatUtcMinute(incident.startedAt)}`;
  }
  if (incident.resolvedAt) {
    when += ` and resolved at ${formatUtcMinute(incident.resolvedAt)}`;
    if (start) when += ` (${formatDuration(msBetween(start, incident.resolvedAt))})`;
  } else if (incident.status) {
    when += `; status: ${statusLabel(incident.status)}`;
  }
  return `${what}${affecting}${when}.`;
}

/**
 * When it began: a maintenance at its window, not at the start its feed gives it, which on
 * Statuspage is when it was announced.
 */
function beganAt(incident: Incident): string | null {
  return incident.kind === "maintenance" ? (incident.scheduledFor ?? incident.startedAt) : (incident.startedAt ?? incident.scheduledFor);
}

/** "First archived 5 minutes after it started", "First archived 11 hours before its window". */
function describeFirstArchived(incident: Incident, observedAt: string): string {
  const start = beganAt(incident);
  if (!start) return "First archived version.";
  const ms = msBetween(start, observedAt);
  const words = incident.kind === "maintenance" && incident.scheduledFor ? { after: "after its window began", before: "before its window" } : { after: "after it started", before: "before its start" };
  return `First archived ${formatSignedSpan(ms, words)}.`;
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

/** "the update of 2026-03-01 10:02 UTC (Investigating)": the status in lib/labels' words, as every page says it. */
function updateLabel(u: IncidentUpdate): string {
  const at = u.displayAt ?? u.createdAt;
  return `the update${at ? ` of ${formatUtcMinute(at)}` : ""}${u.status ? ` (${statusLabel(u.status)})` : ""}`;
}

/** Newly posted updates said once, together: one by its text, several by their number. */
function describeAdded(added: readonly UpdateChange[]): string {
  const first = added.length === 1 ? added[0]?.after : undefined;
  if (first) return `New update${first.status ? ` (${statusLabel(first.status)})` : ""}: "${excerpt(vendorMarkdownToText(first.body))}"`;
  return `${added.length} new updates were posted.`;
}

function describeUpdateChange(c: UpdateChange, observedAt: string): string[] {
  if (c.kind === "removed") return c.before ? [`${capitalize(updateLabel(c.before))} was removed.`] : [];
  if (c.kind !== "changed" || !c.before || !c.after) return [];
  const out: string[] = [];
  const posted = c.before.displayAt ?? c.before.createdAt;
  const later = posted ? `, ${formatSignedSpan(msBetween(posted, observedAt), { after: "after it was posted", before: "before the time it shows" })}` : "";
  const extension = extensionOfUpdate(c.before, c.after);
  if (extension) out.push(`${describeExtension(extension)} ${updateLabel(c.before)}${later}.`);
  else if (c.before.body !== c.after.body) out.push(`${capitalize(updateLabel(c.before))} was rewritten${later}.`);
  else if (c.before.status !== c.after.status) {
    out.push(`${capitalize(updateLabel(c.before))} was relabelled ${c.after.status ? statusLabel(c.after.status) : "without a status"}.`);
  }
  if (!sameInstant(c.before.displayAt, c.after.displayAt)) {
    out.push(`An update's time was moved from ${formatUtcMinute(c.before.displayAt)} to ${formatUtcMinute(c.after.displayAt)}.`);
  }
  return out;
}

/** "A paragraph was added at the end of" / "A sentence was added at the start of". */
function describeExtension(extension: UpdateExtension): string {
  const sentences = extension.added.split(/(?<=[.!?\u2026])\s+/).filter((s) => s.trim() !== "").length;
  const what = extension.paragraph ? "A paragraph was" : sentences > 1 ? "Sentences were" : "A sentence was";
  return `${what} added at the ${extension.where} of`;
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

/** "2026-03-08 02:07–04:07 UTC", or both ends in full across midnight. */
function describeWindow(from: string, until: string): string {
  if (from.slice(0, 10) !== until.slice(0, 10)) return `${formatUtcMinute(from)} – ${formatUtcMinute(until)}`;
  return `${formatUtcMinute(from).replace(/ UTC$/, "")}–${until.slice(11, 16)} UTC`;
}

function changeOf(changes: readonly Change[], field: "scheduledFor" | "scheduledUntil"): ScalarChange | undefined {
  return changes.find((c): c is ScalarChange => c.field === field);
}

const sameMove = (a: ScalarChange, b: ScalarChange) => sameInstant(a.before, b.before) && sameInstant(a.after, b.after);

/** "Window moved from 2026-03-08 02:07–04:07 UTC to 2026-03-08 04:07–06:07 UTC (2 hours later).", when both ends moved. */
function describeWindowMove(start: ScalarChange | undefined, end: ScalarChange | undefined): string | null {
  if (!start?.before || !start.after || !end?.before || !end.after) return null;
  const shift = (ms: number) => (ms === 0 ? "unchanged" : `${formatSpan(ms)} ${ms < 0 ? "earlier" : "later"}`);
  const [first, last] = [msBetween(start.before, start.after), msBetween(end.before, end.after)];
  const by = first === last ? shift(first) : `start ${shift(first)}, end ${shift(last)}`;
  return `Window moved from ${describeWindow(start.before, end.before)} to ${describeWindow(start.after, end.after)} (${by}).`;
}

function describeImpact(before: string | null, after: string | null, kinds: readonly ChangeKindName[], since: string): string {
  if (before === null) return `Impact stated as ${impactLabel(after)}${since}.`;
  if (after === null) return `Impact no longer stated (was ${impactLabel(before)})${since}.`;
  const verb = kinds.includes("impact-downgraded") ? "lowered" : kinds.includes("impact-escalated") ? "raised" : "changed";
  return `Impact ${verb} from ${impactLabel(before)} to ${impactLabel(after)}${since}.`;
}

function describePresence(after: string | null): string {
  if (after === "deleted") return `${presenceLabel("deleted")}: gone from the feed while older incidents are still listed.`;
  if (after === "left-feed") return `${presenceLabel("left-feed")}.`;
  return `${presenceLabel("listed")} again after it had left.`;
}

function describePostmortem(c: Extract<Change, { field: "postmortem" }>, prev: Incident | null, state: IncidentState, observedAt: string): string {
  if (c.kind === "added") {
    const from = prev?.resolvedAt ?? state.incident.resolvedAt;
    const at = c.after?.publishedAt ?? observedAt;
    return from ? `Postmortem published ${formatSignedSpan(msBetween(from, at), { after: "after resolution", before: "before resolution" })}.` : "Postmortem published.";
  }
  if (c.kind === "removed") return "The postmortem was taken down.";
  const since = c.before?.publishedAt;
  return since ? `Postmortem edited ${formatSignedSpan(msBetween(since, observedAt), { after: "after publication", before: "before its stated publication" })}.` : "Postmortem edited.";
}

/** One change other than an update's, as a sentence; null for what another change already says (an end set by resolving). */
function describeChange(c: Exclude<Change, UpdateChange>, { state, previous, changes, kinds, observedAt }: SummaryInput): string | null {
  const prev = previous?.incident ?? null;
  switch (c.field) {
    case "kind":
      return `Relabelled as ${article(c.after ?? "incident")} ${c.after ?? "incident"}.`;
    case "title":
      return `Renamed from "${c.before ?? ""}" to "${c.after ?? ""}".`;
    case "status":
      return `${kinds.includes("incident-reopened") ? "Reopened: status" : "Status"} changed from ${statusLabel(c.before)} to ${statusLabel(c.after)}.`;
    case "impact":
      return describeImpact(c.before, c.after, kinds, afterResolution(prev, observedAt));
    case "url":
      return "The incident's link changed.";
    case "startedAt": {
      // Feeds that start a maintenance at its window move both together: one move, said once.
      const window = changeOf(changes, "scheduledFor");
      return window && sameMove(c, window) ? null : describeMove("Start", c.before, c.after);
    }
    case "resolvedAt":
      return c.kind === "changed" || (c.kind === "removed" && !kinds.includes("incident-reopened")) ? describeMove("End", c.before, c.after) : null;
    case "scheduledFor":
      return describeWindowMove(c, changeOf(changes, "scheduledUntil")) ?? describeMove("Scheduled start", c.before, c.after);
    case "scheduledUntil":
      return describeWindowMove(changeOf(changes, "scheduledFor"), c) === null ? describeMove("Scheduled end", c.before, c.after) : null;
    case "components": {
      const before = new Set((c.before ?? []).map((x) => x.name));
      const after = new Set((c.after ?? []).map((x) => x.name));
      const added = [...after].filter((n) => !before.has(n));
      const removed = [...before].filter((n) => !after.has(n));
      const parts = [added.length ? `added ${formatList(added)}` : "", removed.length ? `removed ${formatList(removed)}` : ""];
      return `Components ${parts.filter(Boolean).join("; ") || "renamed"}.`;
    }
    case "postmortem":
      return describePostmortem(c, prev, state, observedAt);
    case "presence":
      return describePresence(c.after);
  }
}

/** "from 2025-04-12 12:10 to 14:05 UTC", or "at …" for one instant. */
function describeTimes(times: readonly string[]): string {
  const sorted = [...times].sort();
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return "";
  if (sameInstant(first, last)) return ` at ${formatUtcMinute(first)}`;
  return ` from ${formatUtcMinute(first).replace(/ UTC$/, "")} to ${first.slice(0, 10) === last.slice(0, 10) ? `${last.slice(11, 16)} UTC` : formatUtcMinute(last)}`;
}

/** One change as a new source states it: the value it gives (with its time), not a move from the one before. */
function describeStated(c: Exclude<Change, UpdateChange>): string | null {
  switch (c.field) {
    case "status":
      return `status ${statusLabel(c.after)} (was ${statusLabel(c.before)})`;
    case "impact":
      return `impact ${impactLabel(c.after)} (was ${impactLabel(c.before)})`;
    case "title":
      return `the title "${c.after ?? ""}"`;
    case "kind":
      return `${article(c.after ?? "incident")} ${c.after ?? "incident"}`;
    case "startedAt":
      return c.after ? `a start at ${formatUtcMinute(c.after)}` : "no start";
    case "resolvedAt":
      return c.after ? `resolved at ${formatUtcMinute(c.after)}` : "no end";
    case "scheduledFor":
      return `scheduled from ${formatUtcMinute(c.after)}`;
    case "scheduledUntil":
      return `scheduled until ${formatUtcMinute(c.after)}`;
    case "components":
      return (c.after ?? []).length > 0 ? `components ${formatList((c.after ?? []).map((x) => x.name))}` : "no components";
    case "postmortem":
      if (!c.after) return null;
      return c.after.publishedAt ? `a postmortem published at ${formatUtcMinute(c.after.publishedAt)}` : "a postmortem";
    case "url":
      return "another link";
    case "presence":
      return null;
  }
}

/**
 * What a newly added source first says of an incident already archived: what it gives and the
 * times it gives, said as its account of the past rather than as something that happened now.
 */
function describeNewSourceReport(changes: readonly Change[]): string {
  const parts: string[] = [];
  const posted: string[] = [];
  let postedCount = 0;
  let reworded = 0;
  let postmortem: string | null = null;
  for (const c of orderChanges(changes)) {
    if (c.field === "postmortem") postmortem = describeStated(c);
    else if (c.field !== "update") {
      const text = describeStated(c);
      if (text !== null) parts.push(text);
    } else if (c.kind === "added" && c.after) {
      postedCount += 1;
      const at = c.after.displayAt ?? c.after.createdAt;
      if (at) posted.push(at);
    } else reworded += 1;
  }
  if (postedCount > 0) parts.push(`${postedCount === 1 ? "1 update" : `${postedCount} updates`} posted${describeTimes(posted)}`);
  if (reworded > 0) parts.push(reworded === 1 ? "1 update worded differently" : `${reworded} updates worded differently`);
  if (postmortem !== null) parts.push(postmortem);
  const account = parts.length > 0 ? `: ${formatList(parts, parts.length)}, as that source gives them` : "";
  return `Reported by a newly added source at its first capture, not seen as it happened${account}.`;
}

/**
 * The changes in the change page's order (lib/change-order): the one behind the version's headline
 * kind first, so a line in a list, a feed item and the page it links to lead with the same change.
 */
function describeChanges(input: SummaryInput): string[] {
  const { state, changes, kinds, observedAt } = input;
  if (kinds.includes("new-source-report")) return [describeNewSourceReport(changes)];
  if (kinds.includes("incident-new")) return [describeFirstArchived(state.incident, observedAt)];
  // A postmortem posted as an update too is said once, as the postmortem.
  const asPostmortem = postmortemUpdateChange(changes);
  const ordered = orderChanges(changes).filter((c) => c !== asPostmortem);
  const added = ordered.filter((c): c is UpdateChange => c.field === "update" && c.kind === "added");
  const out: string[] = [];
  for (const c of ordered) {
    if (c.field !== "update") {
      const text = describeChange(c, input);
      if (text !== null) out.push(text);
    } else if (c.kind !== "added") out.push(...describeUpdateChange(c, observedAt));
    else if (c === added[0]) out.push(describeAdded(added));
  }
  return out.length > 0 ? out : ["No visible change."];
}
