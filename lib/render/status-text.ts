import { componentStatusLabel } from "@/lib/components/component-status";
import type { StatusComponent, StatusGroup, StatusPage } from "@/lib/components/status-view";
import { formatDuration, formatUtcMinute, formatUtcSecond } from "@/lib/format";
import { impactLabel, statusLabel } from "@/lib/labels";
import { unknownReason } from "@/lib/vendor-now";

// The terminal grid and the web page share these sentences, so both say the same of one view.

/** "2 min before" / "less than a minute before": how far an observation is from the moment. */
function gap(fromIso: string, toIso: string, side: "before" | "after"): string {
  const ms = Math.abs(Date.parse(toIso) - Date.parse(fromIso));
  return ms < 60_000 ? `less than a minute ${side}` : `${formatDuration(ms)} ${side}`;
}

/** "as observed at 2025-05-01 14:03 UTC, 2 min before": the capture the view rests on. */
export function observedPhrase(page: Pick<StatusPage, "view">): string | null {
  const { at, observedAt } = page.view;
  return observedAt === null ? null : `as observed at ${formatUtcMinute(observedAt)}, ${gap(observedAt, at, "before")}`;
}

/** "next observed at …, 12 min after", or that none has come since. */
export function nextObservedPhrase(page: Pick<StatusPage, "view" | "nextObservedAt">): string {
  const next = page.nextObservedAt;
  return next === null ? "no observation since" : `next observed at ${formatUtcMinute(next)}, ${gap(page.view.at, next, "after")}`;
}

/** What the view says of its moment, when that is not simply "as observed then". */
export function standingPhrase(page: Pick<StatusPage, "standing" | "vendorName">): string | null {
  const standing = page.standing;
  if (standing.kind !== "unknown") return null;
  if (standing.asOf === null) return `Unknown since ${formatUtcMinute(standing.unknownSince)}: Redline has never captured ${page.vendorName}'s status.`;
  return `Unknown since the last good capture on ${formatUtcMinute(standing.unknownSince)} (${unknownReason(standing)}): what follows is as observed then, not now.`;
}

/** When the incidents listed were open: then, now, or as last observed (now unknown). */
export function openWhen(page: Pick<StatusPage, "standing">): string {
  return page.standing.kind === "then" ? "then" : page.standing.kind === "current" ? "now" : "as last observed";
}

/** A group whose members and own state are all operational: pages fold it. */
export function isAllOperational(group: StatusGroup): boolean {
  return [...(group.own ? [group.own] : []), ...group.members].every((c) => c.status === "operational");
}

// Vendor text reaches a terminal: no escape sequences, and a name cannot push the columns away.
function clean(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

const NAME_WIDTH = 36;
const STATE_WIDTH = 22;
const WORD_WIDTH = 22;

function row(indent: string, c: StatusComponent): string {
  const cells = [
    `${indent}${clean(c.name, NAME_WIDTH - indent.length)}`.padEnd(NAME_WIDTH),
    componentStatusLabel(c.status).padEnd(STATE_WIDTH),
    clean(c.vendorStatus, WORD_WIDTH).padEnd(WORD_WIDTH),
    `since ${formatUtcMinute(c.since)}`,
    c.inferred ? " inferred from incidents" : "",
  ];
  return cells.join(" ").trimEnd();
}

function groupRows(group: StatusGroup): string[] {
  if (group.name === null) return group.members.map((c) => row("", c));
  if (isAllOperational(group)) {
    const n = group.members.length;
    return [`${`${clean(group.name, NAME_WIDTH - 14)} (${n} ${n === 1 ? "component" : "components"})`.padEnd(NAME_WIDTH)} all operational`];
  }
  const own = group.own ? row("", group.own) : `${clean(group.name, NAME_WIDTH).padEnd(NAME_WIDTH)} ${componentStatusLabel(group.worst)} (worst of its components)`;
  return [own, ...group.members.map((c) => row("  ", c))];
}

/**
 * `redline status` as text: the grid by group, worst first (groups all operational in one line),
 * each state with the vendor's word, since when and whether it was inferred; then the incidents
 * open then, the capture the view rests on and the page's changes on either side.
 */
export function renderStatusText(page: StatusPage): string {
  const { view } = page;
  const asked = page.standing.kind === "then" ? `as it was at ${formatUtcSecond(view.at)}` : `now (${formatUtcSecond(view.at)})`;
  const lines = [`${clean(page.vendorName, 80)} (${view.vendor}) ${asked}`];
  const standing = standingPhrase(page);
  if (standing) lines.push(standing);
  const observed = observedPhrase(page);
  if (observed) lines.push(`${observed[0]?.toUpperCase() ?? ""}${observed.slice(1)}; ${nextObservedPhrase(page)}.`);
  if (view.observedAt === null) return `${lines.join("\n")}\n`;
  lines.push("");
  if (page.groups.length === 0) lines.push("No component grid observed then.");
  else {
    lines.push(`${"COMPONENT".padEnd(NAME_WIDTH)} ${"STATE".padEnd(STATE_WIDTH)} ${"VENDOR'S WORD".padEnd(WORD_WIDTH)} SINCE`);
    for (const group of page.groups) lines.push(...groupRows(group));
  }
  lines.push("");
  const incidents = page.incidents;
  lines.push(incidents.length === 0 ? `No incident open ${openWhen(page)}.` : `Incidents open ${openWhen(page)} (${incidents.length}):`);
  for (const i of incidents) {
    lines.push(`  ${impactLabel(i.impact).padEnd(12)} ${clean(i.title || "(untitled)", 100)}: ${i.status === null ? "no status" : clean(statusLabel(i.status), 40)} (${clean(i.id, 60)}, version ${i.seq})`);
  }
  lines.push("");
  const change = (iso: string | null) => (iso === null ? "none" : formatUtcSecond(iso));
  lines.push(`Previous change: ${change(page.previousChange)}; next change: ${change(page.nextChange)}.`);
  return `${lines.join("\n")}\n`;
}
