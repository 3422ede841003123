import type { ComponentStatus } from "@/lib/components/component-status";
import { describeVendorNow, type SourceNowFacts } from "@/lib/vendor-now";

/** A component's run as its page's "Now" reads it. */
export interface NowRun {
  status: ComponentStatus;
  vendorStatus: string;
  /** When the state began (a rename keeps it). */
  since: string;
  inferred: boolean;
}

export interface ComponentNowFacts {
  /** Its open run; null when the page no longer lists it. */
  open: NowRun | null;
  /** Its last run, open or not, and when that ended (null while open). */
  last: NowRun | null;
  lastUntil: string | null;
  /** The sources that state or name the vendor's components, with their last captures. */
  gridSources: ReadonlyArray<Pick<SourceNowFacts, "source" | "lastGoodAt" | "lastAttemptAt" | "lastOutcome">>;
  createdAt: string;
  polled: boolean;
  pollFailing: boolean;
  intervalMs: number;
}

export type ComponentNow =
  /** As of the last good capture, recent enough to say how things are. */
  | { state: "current"; asOf: string; run: NowRun }
  /** The page stopped listing it, as of a recent capture. */
  | { state: "not-listed"; asOf: string; since: string | null; last: NowRun | null }
  /** Its state now cannot be vouched for: what was last known, and since when nothing is. */
  | { state: "unknown"; asOf: string | null; reason: "never-reached" | "failing" | "not-polled" | "stale" | null; last: NowRun | null; lastUntil: string | null };

/**
 * A component's state now, by the vendor page's honest rules (lib/vendor-now.ts): as of the last
 * good capture of a source that states the grid, only while that capture is recent; otherwise
 * unknown, with what it was then.
 */
export function describeComponentNow(facts: ComponentNowFacts, now: Date): ComponentNow {
  // Every grid source counts as a listing one here, whatever it lists of incidents.
  const sources: SourceNowFacts[] = facts.gridSources.map((s) => ({ ...s, feed: null }));
  const vendorNow = describeVendorNow(
    { createdAt: facts.createdAt, polled: facts.polled, pollFailing: facts.pollFailing, intervalMs: facts.intervalMs, sources, unresolved: [] },
    now,
  );
  if (vendorNow.state === "unknown" || vendorNow.asOf === null) {
    return { state: "unknown", asOf: vendorNow.asOf, reason: vendorNow.reason, last: facts.open ?? facts.last, lastUntil: facts.open ? null : facts.lastUntil };
  }
  if (facts.open) return { state: "current", asOf: vendorNow.asOf, run: facts.open };
  return { state: "not-listed", asOf: vendorNow.asOf, since: facts.lastUntil, last: facts.last };
}
