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

/** Why an incident's feed cannot show a figure: it drops incidents when they end, states no status or end, or carries no postmortem. */
export type UnseenBecause = "drops-ended" | "no-end" | "no-postmortem";

/** Of the period's incidents, those whose feeds could show a figure, and why the others' could not. */
export interface Observable {
  incidents: number;
  unseen: number;
  because: UnseenBecause[];
}

export interface VendorFigures {
  incidents: number;
  /** "2026-03" → incidents that started that month, every month of the period listed. */
  perMonth: Array<{ month: string; count: number }>;
  medianResolveMs: number | null;
  p90ResolveMs: number | null;
  resolved: number;
  /** Of `resolved`, those whose end is when they left a feed of unresolved incidents. */
  probablyResolved: number;
  /** Per figure, the incidents whose feeds could show it: a figure none could show is unknown, never 0. */
  observable: { end: Observable; postmortem: Observable; edits: Observable };
  /** Of the incidents whose feed could show a postmortem; null when there are none. */
  postmortemShare: number | null;
  medianPostmortemDelayMs: number | null;
  /** Null when incidents were archived but none of their feeds could show an edit after resolution. */
  editsAfterResolution: number | null;
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

class ObservableCount {
  private seen = 0;
  private readonly unseen = new Map<UnseenBecause, number>();

  count(why: UnseenBecause | null): void {
    if (why === null) this.seen += 1;
    else this.unseen.set(why, (this.unseen.get(why) ?? 0) + 1);
  }

  get incidents(): number {
    return this.seen;
  }

  result(): Observable {
    return { incidents: this.seen, unseen: [...this.unseen.values()].reduce((a, b) => a + b, 0), because: [...this.unseen.keys()].sort() };
  }
}

/**
 * Why the feed cannot show each figure for this incident, or null where it can. An unknown feed is
 * taken at its word; what was observed anyway (a postmortem, an edit) proves the feed showed it.
 */
function unseenBecause(i: IncidentFacts, feed: FeedKind | null): Record<keyof VendorFigures["observable"], UnseenBecause | null> {
  if (feed === null) return { end: null, postmortem: null, edits: null };
  return {
    end: feed.statesEnd || i.resolvedAt !== null ? null : "no-end",
    postmortem: feed.showsPostmortems || i.postmortemAt !== null ? null : feed.lists === "active" ? "drops-ended" : "no-postmortem",
    edits: feed.showsEditsAfterResolution || i.editsAfterResolution > 0 ? null : feed.statesEnd ? "drops-ended" : "no-end",
  };
}

export function computeVendorFigures(incidents: readonly IncidentFacts[], period: { from: string; to: string }, feedOf: FeedOf = () => null, grid?: GridFigureFacts): VendorFigures {
  const perMonth = new Map(monthsBetween(period.from, period.to).map((m) => [m, 0]));
  const resolveTimes: number[] = [];
  const postmortemDelays: number[] = [];
  const impacts = new Map<string, number>();
  const observable = { end: new ObservableCount(), postmortem: new ObservableCount(), edits: new ObservableCount() };
  let withPostmortem = 0;
  let probable = 0;
  let edits = 0;
  for (const i of incidents) {
    const month = i.startedAt.slice(0, 7);
    if (perMonth.has(month)) perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
    const feed = i.presence ? feedOf(i.presence.source) : null;
    const unseen = unseenBecause(i, feed);
    observable.end.count(unseen.end);
    observable.postmortem.count(unseen.postmortem);
    observable.edits.count(unseen.edits);
    const end = i.presence ? probableEndOf(i.presence, feed) : i.resolvedAt ? { at: i.resolvedAt, probable: false } : null;
    if (end) {
      const ms = Date.parse(end.at) - Date.parse(i.startedAt);
      if (ms >= 0) {
        resolveTimes.push(ms);
        if (end.probable) probable += 1;
      }
    }
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
    observable: { end: observable.end.result(), postmortem: observable.postmortem.result(), edits: observable.edits.result() },
    postmortemShare: observable.postmortem.incidents === 0 ? null : withPostmortem / observable.postmortem.incidents,
    medianPostmortemDelayMs: quantile(postmortemDelays, 0.5),
    editsAfterResolution: incidents.length > 0 && observable.edits.incidents === 0 ? null : edits,
    impactMix: [...impacts.entries()]
      .map(([impact, count]) => ({ impact, count }))
      .sort((a, b) => IMPACT_ORDER.indexOf(a.impact) - IMPACT_ORDER.indexOf(b.impact)),
    components: grid ? computeComponentFigures(grid, period, grid.now) : null,
  };
}
