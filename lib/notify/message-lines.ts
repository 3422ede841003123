/**
 * What any message says about a change, before a format dresses it: the vendor, the kinds in
 * words, the headline, impact and state, the change page's link. Vendor text is cut to a bound.
 */
import { CHANGE_KIND_INFO, type ChangeKindName } from "@/lib/change-kinds";
import { describeQuietDegradation, foldedNames, QUIET_DEGRADATION_LABEL } from "@/lib/components/quiet-degradation";
import { isResolvedStatus } from "@/lib/incident";
import { impactLabel } from "@/lib/labels";
import { isVersionChange, type NotifiedChange, type NotifiedQuietChange, type OutboundMessage } from "@/lib/notify/outbound-message";

/** Longest vendor text (headline, title) a message repeats. */
export const MAX_TEXT_CHARS = 300;

export function clip(text: string, max = MAX_TEXT_CHARS): string {
  // Control characters (CR and LF included) become spaces: nothing vendor-written breaks a line or a header.
  // Work on a prefix only: 100 KB of vendor text costs no more than a line of it.
  const flat = [...text.slice(0, max * 8)].map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? " " : c)).join("").replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export interface ChangeLine {
  vendor: string;
  /** What the title names: an incident, or a quiet degradation's components. */
  subject: "Incident" | "Components";
  title: string;
  kinds: string;
  headline: string;
  impact: string;
  state: "open" | "resolved" | "ongoing" | "ended";
  link: string;
}

function describeQuietChange(change: NotifiedQuietChange): ChangeLine {
  const q = change.quietDegradation;
  const view = { vendor: { slug: q.vendor, name: change.vendorName }, from: q.from, until: q.until, components: q.components };
  return {
    vendor: clip(change.vendorName, 100),
    subject: "Components",
    title: clip(foldedNames(q.components)),
    kinds: QUIET_DEGRADATION_LABEL,
    headline: clip(describeQuietDegradation(view)),
    impact: "no incident open",
    state: q.until === null ? "ongoing" : "ended",
    link: q.links.html,
  };
}

/** The page a change's line links to: its change page, or the status page as a quiet degradation began. */
export function changeLink(change: NotifiedChange): string {
  return isVersionChange(change) ? change.version.links.html : change.quietDegradation.links.html;
}

export function describeChange(change: NotifiedChange): ChangeLine {
  if (!isVersionChange(change)) return describeQuietChange(change);
  const { version } = change;
  const incident = version.snapshot.incident;
  return {
    vendor: clip(change.vendorName, 100),
    subject: "Incident",
    title: clip(version.incident.title || incident.title),
    kinds: version.kinds.map((k) => CHANGE_KIND_INFO[k as ChangeKindName]?.label ?? k).join(", "),
    headline: clip(version.headline || version.summary),
    impact: impactLabel(incident.impact),
    state: incident.resolvedAt !== null || isResolvedStatus(incident.status) ? "resolved" : "open",
    link: version.links.html,
  };
}

/** "14 changes from 3 vendors", and for a digest its period. */
export function describeBundle(message: OutboundMessage): string {
  const vendors = new Set(message.changes.map((c) => c.vendorName)).size;
  const count = `${message.changes.length} change${message.changes.length === 1 ? "" : "s"} from ${vendors} vendor${vendors === 1 ? "" : "s"}`;
  if (!message.period) return count;
  const from = message.period.from.slice(0, 16).replace("T", " ");
  const to = message.period.every === "daily" ? message.period.to.slice(0, 10) : message.period.to.slice(11, 16);
  return `${message.period.every === "daily" ? "Daily" : "Hourly"} digest, ${from}–${to} UTC: ${count}`;
}

/** The changes list a bundle links to when it lists only its first few. */
export function changesLink(message: OutboundMessage): string | null {
  const change = message.changes[0];
  const first = change ? changeLink(change) : undefined;
  return first ? new URL("/", first).toString() : null;
}
