/**
 * What Redline can honestly say a vendor's state is now: as of its last good capture, and only
 * what its feeds can tell. Pure: the feed's declared profile and the stored facts come in.
 */
import type { SourceProfile } from "@/lib/derive/source-profile";
import { formatUtcMinute } from "@/lib/format";
import { statusLabel } from "@/lib/labels";

/** Past this many poll intervals without a good capture, the last one no longer says how things are. */
export const STALE_AFTER_INTERVALS = 3;

const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["resolved", "completed", "postmortem", "closed"]);

/** What a feed can say about an incident ending, read off its source's declared profile. */
export interface FeedKind {
  /** active: lists only unresolved incidents; recent: the N most recent; full; single. */
  lists: SourceProfile["presence"]["kind"];
  /** Whether its incidents carry a status or an end at all (an RSS feed's items do not). */
  statesEnd: boolean;
  /** Whether it can show a postmortem: it states one and keeps incidents listed after they end. */
  showsPostmortems: boolean;
  /** Whether it can show an edit after resolution: it states the end and keeps incidents listed after it. */
  showsEditsAfterResolution: boolean;
}

export function feedKindOf(profile: SourceProfile): FeedKind {
  const statesEnd = profile.fields.status !== undefined || profile.fields.resolvedAt !== undefined;
  const keepsEnded = profile.presence.kind !== "active";
  return {
    lists: profile.presence.kind,
    statesEnd,
    showsPostmortems: profile.fields.postmortem !== undefined && keepsEnded,
    showsEditsAfterResolution: statesEnd && keepsEnded,
  };
}

export interface IncidentNowFacts {
  status: string | null;
  resolvedAt: string | null;
  presence: string;
  lastSeenAt: string;
  /** When it was recorded as gone from the feed (the version that said so); null while listed. */
  leftAt: string | null;
  kind?: string;
}

export type IncidentNowState =
  | { state: "resolved"; at: string | null }
  | { state: "open"; status: string | null }
  | { state: "probably-resolved"; leftAt: string }
  | { state: "left-feed"; leftAt: string }
  | { state: "deleted"; at: string }
  | { state: "no-status" };

/**
 * An incident's state as far as its feed can tell. An unresolved incident that left a feed of
 * unresolved incidents was probably resolved then; one in a feed without statuses is neither open
 * nor resolved. Null `feed`: the source is unknown, so the stored fields are taken at their word.
 */
export function describeIncidentState(incident: IncidentNowFacts, feed: FeedKind | null): IncidentNowState & { label: string } {
  const leftAt = incident.leftAt ?? incident.lastSeenAt;
  if (incident.resolvedAt !== null || (incident.status !== null && TERMINAL_STATUSES.has(incident.status))) {
    return { state: "resolved", at: incident.resolvedAt, label: "resolved" };
  }
  if (incident.presence === "deleted") return { state: "deleted", at: leftAt, label: `deleted from the feed on ${formatUtcMinute(leftAt)}` };
  if (feed !== null && !feed.statesEnd) return { state: "no-status", label: "no status given" };
  if (incident.presence === "left-feed") {
    if (feed === null || feed.lists === "active") {
      return { state: "probably-resolved", leftAt, label: `left the feed on ${formatUtcMinute(leftAt)}, probably resolved` };
    }
    const last = incident.status === null ? "unresolved" : `last status ${statusLabel(incident.status)}`;
    return { state: "left-feed", leftAt, label: `left the feed on ${formatUtcMinute(leftAt)}, ${last}` };
  }
  return { state: "open", status: incident.status, label: incident.status === null ? "open" : statusLabel(incident.status) };
}

/**
 * How long an incident its feed still lists as unresolved has been open, and whether that holds
 * now: only while its source's last good capture is recent (within a few poll intervals). An
 * imported archive's, or a feed that stopped answering, says only that it was open then.
 */
export function describeStillOpen(
  incident: { startedAt: string | null },
  capturedAt: string | null,
  intervalMs: number,
  now: Date,
): { current: true; openForMs: number | null } | { current: false; asOf: string | null; openForMs: number | null } {
  const started = incident.startedAt === null ? null : Date.parse(incident.startedAt);
  const current = capturedAt !== null && Date.parse(capturedAt) >= now.getTime() - STALE_AFTER_INTERVALS * intervalMs;
  if (current) return { current, openForMs: started === null ? null : Math.max(0, now.getTime() - started) };
  const until = capturedAt === null ? null : Date.parse(capturedAt);
  return { current, asOf: capturedAt, openForMs: started === null || until === null ? null : Math.max(0, until - started) };
}

/** Each source's feed kind by name, for figures over incidents of several sources. */
export function feedsBySource(sources: readonly SourceNowFacts[]): (source: string) => FeedKind | null {
  const feeds = new Map(sources.map((s) => [s.source, s.feed]));
  return (source) => feeds.get(source) ?? null;
}

/** The end an incident's figures can use: its resolution, or when it left a feed of unresolved incidents. */
export function probableEndOf(incident: IncidentNowFacts, feed: FeedKind | null): { at: string; probable: boolean } | null {
  const state = describeIncidentState(incident, feed);
  if (state.state === "resolved") return state.at === null ? null : { at: state.at, probable: false };
  if (state.state === "probably-resolved") return { at: state.leftAt, probable: true };
  return null;
}

export interface SourceNowFacts {
  source: string;
  /** Null: a source whose format Redline no longer knows. */
  feed: FeedKind | null;
  /** The end of its last good capture (read, or unchanged since); null: never. */
  lastGoodAt: string | null;
  /** Its latest capture of any outcome, and that outcome. */
  lastAttemptAt: string | null;
  lastOutcome: string | null;
}

export interface VendorNowFacts {
  /** When the vendor was added: an unknown state dates from then when it was never reached. */
  createdAt: string;
  /** Whether the poller polls it; an import-only vendor is known only as of its last capture. */
  polled: boolean;
  /** Whether the poller's last round for it failed (a failure before any capture was recorded counts too). */
  pollFailing?: boolean;
  /** When the poller last read its listing, when that round succeeded: by the poller's own real clock. */
  lastOkPollAt?: string | null;
  intervalMs: number;
  sources: readonly SourceNowFacts[];
  /** Incidents its sources list as unresolved, with the source that lists each. */
  unresolved: ReadonlyArray<IncidentNowFacts & { source: string }>;
}

/** A vendor's Now facts from its row, its poll state and its sources' standings. */
export function nowFactsOf(
  vendor: { createdAt: string; enabled: boolean; url: string | null; intervalSeconds: number | null },
  poll: { lastOutcome: string | null; lastPollAt: string | null } | undefined,
  sources: SourceNowFacts[],
  defaultIntervalMs: number,
): Omit<VendorNowFacts, "unresolved"> {
  return {
    createdAt: vendor.createdAt,
    polled: vendor.enabled && vendor.url !== null,
    pollFailing: poll !== undefined && poll.lastOutcome !== null && poll.lastOutcome !== "ok",
    lastOkPollAt: poll?.lastOutcome === "ok" ? poll.lastPollAt : null,
    intervalMs: vendor.intervalSeconds ? vendor.intervalSeconds * 1000 : defaultIntervalMs,
    sources,
  };
}

export type VendorNowState = "clear" | "incident" | "unknown";

export interface VendorNow<I> {
  state: VendorNowState;
  /** The last good capture the state is as of; null when never reached. */
  asOf: string | null;
  /** Since when the state is unknown (the last good capture, or the vendor's creation). */
  unknownSince: string | null;
  /** Why it is unknown. */
  reason: "never-reached" | "failing" | "not-polled" | "stale" | null;
  /** Open as of `asOf` (a stale capture's open incidents are not open now). */
  open: I[];
  /** Listed by a feed that gives no status: neither open nor resolved. */
  withoutStatus: I[];
}

/** Capture time, stated or not: sources that only follow other sources' incidents do not say the vendor is clear. */
function isListingSource(s: SourceNowFacts): boolean {
  return s.feed === null || s.feed.lists !== "single";
}

function latest(times: ReadonlyArray<string | null>): string | null {
  let best: string | null = null;
  for (const t of times) if (t !== null && (best === null || t > best)) best = t;
  return best;
}

/** What Redline can say of a vendor now, incidents aside: as of when, and since when it no longer knows. */
export interface NowStanding {
  /** The last good capture of a listing source; null when never reached. */
  asOf: string | null;
  /** Null while `asOf` is recent; else since when the state is unknown (that capture, or the vendor's creation). */
  unknownSince: string | null;
  reason: VendorNow<never>["reason"];
}

/**
 * The honesty rule of every "now" (the vendor's Now, the page as it is now, `redline status`): as
 * of the last good capture of a listing source while that is within a few poll intervals, else
 * unknown since then; never reached is unknown since the vendor was added, never clear.
 */
export function describeNowStanding(facts: Omit<VendorNowFacts, "unresolved">, now: Date): NowStanding {
  const listing = facts.sources.filter(isListingSource);
  const considered = listing.length > 0 ? listing : facts.sources;
  const asOf = latest(considered.map((s) => s.lastGoodAt));
  if (asOf === null) return { asOf: null, unknownSince: facts.createdAt, reason: "never-reached" };
  const recent = (at: string) => Date.parse(at) >= now.getTime() - STALE_AFTER_INTERVALS * facts.intervalMs;
  // Captures are stamped by the clock the poller observes by (the demo's runs weeks behind), its
  // rounds by real time: a listing read successfully a moment ago is current whatever its stamp says.
  const lastOkPollAt = facts.lastOkPollAt ?? null;
  const polledJustNow = facts.polled && lastOkPollAt !== null && recent(lastOkPollAt);
  if (recent(asOf) || polledJustNow) return { asOf, unknownSince: null, reason: null };
  const failing = facts.pollFailing === true || considered.some((s) => s.lastOutcome === "failed" || s.lastOutcome === "invalid");
  return { asOf, unknownSince: asOf, reason: !facts.polled ? "not-polled" : failing ? "failing" : "stale" };
}

/** Why the state is unknown, in a reader's words. */
export function unknownReason(now: Pick<NowStanding, "reason">): string {
  switch (now.reason) {
    case "never-reached":
      return "never reached";
    case "failing":
      return "polling is failing";
    case "not-polled":
      return "not polled: as of the last imported capture";
    default:
      return "no capture since";
  }
}

/**
 * A vendor's state now: as of its last good capture when that is recent (within a few poll
 * intervals), else unknown since then; never reached is unknown, never clear.
 */
export function describeVendorNow<I extends IncidentNowFacts & { source: string }>(
  facts: Omit<VendorNowFacts, "unresolved"> & { unresolved: readonly I[] },
  now: Date,
): VendorNow<I> {
  const standing = describeNowStanding(facts, now);
  const asOf = standing.asOf;
  const feeds = new Map(facts.sources.map((s) => [s.source, s]));
  const staleBefore = now.getTime() - STALE_AFTER_INTERVALS * facts.intervalMs;
  const fresh = (at: string | null) => at !== null && Date.parse(at) >= staleBefore;
  const open: I[] = [];
  const withoutStatus: I[] = [];
  for (const incident of facts.unresolved) {
    const source = feeds.get(incident.source);
    const state = describeIncidentState(incident, source?.feed ?? null).state;
    // An incident listed only by a source that has since gone quiet is not known to be open now.
    if (state === "open" && (asOf === null || !fresh(asOf) || fresh(source?.lastGoodAt ?? asOf))) open.push(incident);
    else if (state === "no-status") withoutStatus.push(incident);
  }
  if (standing.asOf === null) return { state: "unknown", ...standing, open: [], withoutStatus: [] };
  if (standing.unknownSince !== null) return { state: "unknown", ...standing, open, withoutStatus };
  return { state: open.some((i) => i.kind !== "maintenance") ? "incident" : "clear", ...standing, open, withoutStatus };
}

const IMPACT_RANK: Readonly<Record<string, number>> = { critical: 4, major: 3, minor: 2, none: 1 };

/** The worst impact among incidents; null when none states one. */
export function worstImpactOf(incidents: ReadonlyArray<{ impact: string | null }>): string | null {
  return incidents.reduce<string | null>((worst, i) => ((IMPACT_RANK[i.impact ?? ""] ?? 0) > (IMPACT_RANK[worst ?? ""] ?? 0) ? i.impact : worst), null);
}

const NOW_STATE_ORDER: Readonly<Record<VendorNowState, number>> = { incident: 0, unknown: 1, clear: 2 };

/**
 * The vendor list's "Now" order: vendors with open incidents first (worst impact, then most open),
 * then those whose state is unknown, then the clear ones; by name within each.
 */
export function compareByNow(
  a: { name: string; state: VendorNowState; worstImpact: string | null; open: number },
  b: { name: string; state: VendorNowState; worstImpact: string | null; open: number },
): number {
  return (
    NOW_STATE_ORDER[a.state] - NOW_STATE_ORDER[b.state] ||
    (IMPACT_RANK[b.worstImpact ?? ""] ?? 0) - (IMPACT_RANK[a.worstImpact ?? ""] ?? 0) ||
    b.open - a.open ||
    a.name.localeCompare(b.name, "en", { sensitivity: "base" })
  );
}

