/** A vendor's track record over a period, from its incidents: pure, so it is tested alone. */
import { type ComponentFigureFacts, type ComponentFigures, computeComponentFigures } from "@/lib/components/component-figures";
import { quantile } from "@/lib/quantile";
import { type FeedKind, type IncidentNowFacts, probableEndOf } from "@/lib/vendor-now";

export interface IncidentFacts {
  startedAt: string;
  resolvedAt: string | null;
  impact: string | null;
  postmortemAt: string | null;
  editsAfterResolution: number;
  /** What its feed can tell of its end (lib/vendor-now.ts); absent: `resolvedAt` is taken at its word. */
  presence?: IncidentNowFacts & { source: string };
}

/** The feed kind of a source, as its platform declares it; null when unknown. */
export type FeedOf = (source: string) => FeedKind | null;

export interface VendorFigures {
  incidents: number;
  /** "2026-03" → incidents that started that month, every month of the period listed. */
  perMonth: Array<{ month: string; count: number }>;
  medianResolveMs: number | null;
  p90ResolveMs: number | null;
  resolved: number;
  /** Of `resolved`, those whose end is when they left a feed of unresolved incidents. */
  probablyResolved: number;
  /** Incidents whose feed could show a postmortem: the share is of these; null when there are none. */
  postmortemObservable: number;
  postmortemShare: number | null;
  medianPostmortemDelayMs: number | null;
  editsAfterResolution: number;
  impactMix: Array<{ impact: string; count: number }>;
  /** From the component grid Redline observed; null when not asked for. */
  components: ComponentFigures | null;
}

/** What the component figures are computed from, and the moment they are as of. */
export type GridFigureFacts = ComponentFigureFacts & { now: Date };

export { quantile };

function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  let y = Number(from.slice(0, 4));
  let m = Number(from.slice(5, 7));
  const end = to.slice(0, 7);
  for (let guard = 0; guard < 1200; guard += 1) {
    const key = `${y}-${String(m).padStart(2, "0")}`;
    if (key > end) break;
    months.push(key);
    m += 1;
    if (m > 12) {
      m = 1;
      y += 1;
    }
  }
  return months;
}

const IMPACT_ORDER = ["critical", "major", "minor", "none", "unknown"];

export function computeVendorFigures(incidents: readonly IncidentFacts[], period: { from: string; to: string }, feedOf: FeedOf = () => null, grid?: GridFigureFacts): VendorFigures {
  const perMonth = new Map(monthsBetween(period.from, period.to).map((m) => [m, 0]));
  const resolveTimes: number[] = [];
  const postmortemDelays: number[] = [];
  const impacts = new Map<string, number>();
  let withPostmortem = 0;
  let observable = 0;
  let probable = 0;
  let edits = 0;
  for (const i of incidents) {
    const month = i.startedAt.slice(0, 7);
    if (perMonth.has(month)) perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
    const feed = i.presence ? feedOf(i.presence.source) : null;
    const end = i.presence ? probableEndOf(i.presence, feed) : i.resolvedAt ? { at: i.resolvedAt, probable: false } : null;
    if (end) {
      const ms = Date.parse(end.at) - Date.parse(i.startedAt);
      if (ms >= 0) {
        resolveTimes.push(ms);
        if (end.probable) probable += 1;
      }
    }
    // A feed of unresolved incidents drops them before a postmortem can appear: they say nothing of the rate.
    if (feed === null || feed.showsPostmortems || i.postmortemAt) observable += 1;
    if (i.postmortemAt) {
      withPostmortem += 1;
      if (i.resolvedAt) postmortemDelays.push(Math.max(0, Date.parse(i.postmortemAt) - Date.parse(i.resolvedAt)));
    }
    edits += i.editsAfterResolution;
    const impact = i.impact ?? "unknown";
    impacts.set(impact, (impacts.get(impact) ?? 0) + 1);
  }
  return {
    incidents: incidents.length,
    perMonth: [...perMonth.entries()].map(([month, count]) => ({ month, count })),
    medianResolveMs: quantile(resolveTimes, 0.5),
    p90ResolveMs: quantile(resolveTimes, 0.9),
    resolved: resolveTimes.length,
    probablyResolved: probable,
    postmortemObservable: observable,
    postmortemShare: observable === 0 ? null : withPostmortem / observable,
    medianPostmortemDelayMs: quantile(postmortemDelays, 0.5),
    editsAfterResolution: edits,
    impactMix: [...impacts.entries()]
      .map(([impact, count]) => ({ impact, count }))
      .sort((a, b) => IMPACT_ORDER.indexOf(a.impact) - IMPACT_ORDER.indexOf(b.impact)),
    components: grid ? computeComponentFigures(grid, period, grid.now) : null,
  };
}
