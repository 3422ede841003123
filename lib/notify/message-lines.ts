/**
 * What any message says about a change, before a format dresses it: the vendor, the kinds in
 * words, the headline, impact and state, the change page's link. Vendor text is cut to a bound.
 */
import { CHANGE_KIND_INFO, type ChangeKindName } from "@/lib/change-kinds";
import { isResolvedStatus } from "@/lib/incident";
import { impactLabel } from "@/lib/labels";
import type { NotifiedChange, OutboundMessage } from "@/lib/notify/outbound-message";

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
  title: string;
  kinds: string;
  headline: string;
  impact: string;
  state: "open" | "resolved";
  link: string;
}

export function describeChange(change: NotifiedChange): ChangeLine {
  const { version } = change;
  const incident = version.snapshot.incident;
  return {
    vendor: clip(change.vendorName, 100),
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
  const first = message.changes[0]?.version.links.html;
  return first ? new URL("/", first).toString() : null;
}
