import type { StoredComponentRun } from "@/lib/components/component-history";
import { type ComponentNow, describeComponentNow } from "@/lib/components/component-now";
import type { ComponentStatus } from "@/lib/components/component-status";
import { type DayCell, dayStripOf } from "@/lib/components/day-strip";
import { longestWatchedGap, observedWithin, type SourceWatch, type Span, watchedTimeOfSources } from "@/lib/components/observed-time";
import { type StateShares, stateSharesOf } from "@/lib/components/state-shares";
import type { SourceProfile } from "@/lib/derive/source-profile";

/** Days the strip shows, as status pages draw theirs. */
export const STRIP_DAYS = 90;
const DAY_MS = 86_400_000;
/** At most this many runs are listed in the timeline; the shares count them all. */
export const TIMELINE_LIMIT = 200;

/** The period the shares cover: the last N days, or whole UTC days from `since` to `until`. */
export type ComponentPeriodAsked = { days?: 30 | 90 | 365; since?: string; until?: string };

export interface ComponentPeriod {
  from: string;
  /** Exclusive, never after now. */
  to: string;
  label: string;
  /** The last N days asked for, or the days asked for (both included). */
  days: number | null;
  dates: { since: string; until: string } | null;
}

export function componentPeriodOf(asked: ComponentPeriodAsked, now: Date): ComponentPeriod {
  const nowMs = now.getTime();
  if (asked.since === undefined && asked.until === undefined) {
    const days = asked.days ?? 90;
    return { from: new Date(nowMs - days * DAY_MS).toISOString(), to: now.toISOString(), label: `the last ${days} days`, days, dates: null };
  }
  const until = asked.until ?? now.toISOString().slice(0, 10);
  const since = asked.since ?? new Date(Date.parse(`${until}T00:00:00.000Z`) - 89 * DAY_MS).toISOString().slice(0, 10);
  const [first, last] = since <= until ? [since, until] : [until, since];
  const end = Math.min(Date.parse(`${last}T00:00:00.000Z`) + DAY_MS, nowMs);
  const start = Math.min(Date.parse(`${first}T00:00:00.000Z`), end);
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString(), label: `${first} to ${last}`, days: null, dates: { since: first, until: last } };
}

/** The earliest instant the page needs captures and runs from: the period's start or the strip's, a watched gap before. */
export function componentWindowStart(period: ComponentPeriod, now: Date, intervalMs: number): string {
  const stripStart = Math.floor(now.getTime() / DAY_MS) * DAY_MS - (STRIP_DAYS - 1) * DAY_MS;
  return new Date(Math.min(Date.parse(period.from), stripStart) - longestWatchedGap(intervalMs)).toISOString();
}

export interface GridSource {
  source: string;
  platform: string;
}

/**
 * The sources whose captures say when the grid was watched: those stating it, or (a vendor with
 * none) those naming components in incidents, as the component step lets them.
 */
export function gridSourcesOf<T extends GridSource>(sources: readonly T[], profileOf: (platform: string) => SourceProfile | null): T[] {
  const stated = sources.filter((s) => profileOf(s.platform)?.components === "stated");
  return stated.length > 0 ? stated : sources.filter((s) => profileOf(s.platform)?.components === "inferred");
}

export interface IncidentNaming {
  providerId: string;
  title: string;
  kind: string;
  impact: string | null;
  status: string | null;
  startedAt: string | null;
  resolvedAt: string | null;
  firstSeenAt: string;
  presence: string;
}

/** What the store finds for a component's page. */
export interface ComponentPageFacts {
  vendor: { slug: string; name: string; createdAt: string; polled: boolean; pollFailing: boolean; intervalMs: number };
  component: { key: string; firstListedAt: string | null; runCount: number };
  /** Its runs that end after the window's start (or are open), oldest first; the last one the component ever had. */
  runs: StoredComponentRun[];
  last: StoredComponentRun | null;
  /** Its group's name as last listed; null at the top level. */
  groupName: string | null;
  /** Components listed in it now, when it is a group. */
  members: Array<{ key: string; name: string; status: ComponentStatus; inferred: boolean }>;
  gridSources: Array<GridSource & { lastGoodAt: string | null; lastAttemptAt: string | null; lastOutcome: string | null }>;
  /** When each grid source watched the grid, from the window's start. */
  watches: SourceWatch[];
  /** Incidents naming it that began in the period, newest first. */
  incidents: IncidentNaming[];
  /** Whether more incidents named it in the period than are listed. */
  moreIncidents: boolean;
}

/** One line of the timeline: a run of a state, or a stretch in which the page did not list the component. */
export type TimelineEntry = (
  | { kind: "state"; status: ComponentStatus; vendorStatus: string; inferred: boolean; name: string; renamed: boolean }
  | { kind: "not-listed" }
) & {
  from: string;
  until: string | null;
  /** To its end; for the current entry, to now, or (its state now unknown) to the last capture that showed it. */
  durationMs: number;
};

export interface ComponentPage {
  facts: ComponentPageFacts;
  name: string;
  isGroup: boolean;
  knowledge: "stated" | "inferred";
  now: ComponentNow;
  period: ComponentPeriod;
  /** Newest first, the runs touching the period. */
  timeline: TimelineEntry[];
  /** Runs touching the period beyond the timeline's limit. */
  timelineCut: number;
  shares: StateShares;
  strip: DayCell[];
}

function timelineOf(runs: readonly StoredComponentRun[], name: string, period: Span, knownUntil: number): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  runs.forEach((run, i) => {
    const end = run.until === null ? Math.max(knownUntil, Date.parse(run.from)) : Date.parse(run.until);
    if (Date.parse(run.from) < period.to && end > period.from) {
      entries.push({
        kind: "state", status: run.status, vendorStatus: run.vendorStatus, inferred: run.inferred, from: run.from, until: run.until,
        durationMs: end - Date.parse(run.from), name: run.name, renamed: run.name !== name,
      });
    }
    // The page stopped listing it: until it listed it again, or to this day.
    const next = runs[i + 1];
    if (run.until === null || (next !== undefined && next.from <= run.until)) return;
    const until = next?.from ?? null;
    const gapEnd = until === null ? Math.max(knownUntil, Date.parse(run.until)) : Date.parse(until);
    if (Date.parse(run.until) < period.to && gapEnd > period.from) entries.push({ kind: "not-listed", from: run.until, until, durationMs: gapEnd - Date.parse(run.until) });
  });
  return entries.reverse();
}

/** The component's page from the store's facts: its Now, its timeline over the period, the time per state and the strip of days. */
export function toComponentPage(facts: ComponentPageFacts, period: ComponentPeriod, now: Date): ComponentPage {
  const nowMs = now.getTime();
  const last = facts.last;
  const name = last?.name ?? facts.component.key;
  const open = last && last.until === null ? last : null;
  const nowRun = (r: StoredComponentRun | null) => (r ? { status: r.status, vendorStatus: r.vendorStatus, since: r.since, inferred: r.inferred } : null);
  const componentNow = describeComponentNow(
    {
      open: nowRun(open), last: nowRun(last), lastUntil: last?.until ?? null, gridSources: facts.gridSources,
      createdAt: facts.vendor.createdAt, polled: facts.vendor.polled, pollFailing: facts.vendor.pollFailing, intervalMs: facts.vendor.intervalMs,
    },
    now,
  );
  const span = { from: Date.parse(period.from), to: Date.parse(period.to) };
  const stripSpan = { from: Math.floor(nowMs / DAY_MS) * DAY_MS - (STRIP_DAYS - 1) * DAY_MS, to: nowMs };
  // The period and the strip read the same captures: their watched time is worked out once.
  const watched = watchedTimeOfSources(facts.watches, { intervalMs: facts.vendor.intervalMs, now: nowMs });
  // What is current is known up to now only while the grid is watched; otherwise up to its last capture.
  const knownUntil = componentNow.state === "unknown" ? (componentNow.asOf === null ? 0 : Date.parse(componentNow.asOf)) : nowMs;
  const timeline = timelineOf(facts.runs, name, span, knownUntil);
  return {
    facts,
    name,
    isGroup: last?.isGroup ?? false,
    knowledge: facts.runs.some((r) => !r.inferred) || (last !== null && !last.inferred) ? "stated" : "inferred",
    now: componentNow,
    period,
    timeline: timeline.slice(0, TIMELINE_LIMIT),
    timelineCut: Math.max(0, timeline.length - TIMELINE_LIMIT),
    shares: stateSharesOf(facts.runs, observedWithin(watched, span), span),
    strip: dayStripOf(facts.runs, observedWithin(watched, stripSpan).observed, { days: STRIP_DAYS, now: nowMs }),
  };
}
