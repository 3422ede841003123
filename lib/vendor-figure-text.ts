/**
 * The vendor figures as a reader reads them, worded once for the vendor page and /compare: a figure
 * none of the vendor's feeds could show is "unknown", with why, never 0 or 0%.
 */
import { formatDuration } from "@/lib/format";
import type { Observable, UnseenBecause, VendorFigures } from "@/lib/vendor-figures";

const FROM_A_FEED: Record<UnseenBecause, string> = {
  "drops-ended": "a feed that drops ended incidents",
  "no-end": "a feed without status or end",
  "no-postmortem": "a feed without postmortems",
};

export interface FigureTexts {
  medianResolve: string;
  p90Resolve: string;
  postmortemShare: string;
  postmortemWait: string;
  editsAfterResolution: string;
  editsPerIncident: string;
}

function fromFeeds(o: Observable): string {
  return o.because.map((b) => FROM_A_FEED[b]).join(" or ");
}

function unknown(f: VendorFigures, o: Observable): string | null {
  return f.incidents > 0 && o.incidents === 0 ? `unknown: every incident is from ${fromFeeds(o)}` : null;
}

/** Where only some incidents' feeds could show the figure: how many it is of, and why not the rest. */
function partly(o: Observable, of: string): string {
  return o.unseen > 0 && o.incidents > 0 ? ` (${of} ${o.incidents}; ${o.unseen} more from ${fromFeeds(o)})` : "";
}

function probably(f: VendorFigures): string {
  return f.probablyResolved === 0 ? "" : ` (${f.probablyResolved} of ${f.resolved} ended when they left the feed)`;
}

export function describeFigures(f: VendorFigures): FigureTexts {
  const { end, postmortem, edits } = f.observable;
  const noIncidents = f.incidents === 0 ? "no incidents" : null;
  return {
    medianResolve: unknown(f, end) ?? (f.medianResolveMs === null ? "none resolved" : `${formatDuration(f.medianResolveMs)}${probably(f)}`),
    p90Resolve: unknown(f, end) ?? (f.p90ResolveMs === null ? "none resolved" : formatDuration(f.p90ResolveMs)),
    postmortemShare: noIncidents ?? unknown(f, postmortem) ?? (f.postmortemShare === null ? "no incidents" : `${Math.round(f.postmortemShare * 100)}%${partly(postmortem, "of")}`),
    postmortemWait: unknown(f, postmortem) ?? (f.medianPostmortemDelayMs === null ? "no postmortem" : formatDuration(f.medianPostmortemDelayMs)),
    editsAfterResolution: unknown(f, edits) ?? `${f.editsAfterResolution ?? 0}${partly(edits, "in")}`,
    editsPerIncident: noIncidents ?? unknown(f, edits) ?? ((f.editsAfterResolution ?? 0) / edits.incidents).toFixed(2),
  };
}
