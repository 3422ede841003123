import { type ComponentStatus, rankComponentStatus } from "@/lib/components/component-status";
import type { ComponentRun } from "@/lib/components/component-step";
import type { Impact } from "@/lib/incident";
import { describeNowStanding, type NowStanding, type VendorNowFacts } from "@/lib/vendor-now";

/** A component's run covering the moment asked about. */
export type CoveringRun = ComponentRun;

/** An incident as of the moment asked about: the version it was at then. */
export interface IncidentAt {
  id: string;
  title: string;
  status: string | null;
  impact: Impact | null;
  kind: "incident" | "maintenance";
  seq: number;
  open: boolean;
  /** Whether its source states an end at all (an RSS item has no status, so it is never open). */
  statesEnd: boolean;
}

/** The facts the store finds for a vendor at one moment. */
export interface StatusFacts {
  vendor: { slug: string; name: string };
  at: string;
  /** The vendor's first good capture: nothing is known before it. */
  firstObservedAt: string | null;
  /** The latest good observation at or before the moment, and the first after it. */
  observedAt: string | null;
  nextObservedAt: string | null;
  runs: CoveringRun[];
  incidents: IncidentAt[];
  /** The change that made the page as it was then, the one before it, and the next one. */
  currentChange: string | null;
  previousChange: string | null;
  nextChange: string | null;
}

export interface StatusComponent {
  id: string;
  name: string;
  /** Its group's name; null at the top level. */
  group: string | null;
  status: ComponentStatus;
  vendorStatus: string;
  /** When Redline first observed the state. */
  since: string;
  inferred: boolean;
}

export interface StatusIncident {
  id: string;
  title: string;
  status: string | null;
  impact: Impact | null;
  seq: number;
}

/** The page as it was at a moment: what `redline status`, the API and the web page serve alike. */
export interface StatusView {
  vendor: string;
  at: string;
  observedAt: string | null;
  components: StatusComponent[];
  incidents: StatusIncident[];
}

/**
 * What the view says of its moment: a moment asked for is as observed then; now is current while
 * the last good capture is recent, else unknown since it (the vendor's "Now" rule).
 */
export type StatusStanding = { kind: "then" } | { kind: "current"; asOf: string } | ({ kind: "unknown" } & NowStanding & { unknownSince: string });

/** The whole view, with what pages show around it. */
export interface StatusPage {
  view: StatusView;
  vendorName: string;
  standing: StatusStanding;
  /** Groups of the grid as observed: their own component (when listed) and their members, worst first. */
  groups: StatusGroup[];
  /** The incidents open as observed (the view lists none while the state now is unknown). */
  incidents: StatusIncident[];
  nextObservedAt: string | null;
  /** The change that made the page as it was then, the one before it, and the next one. */
  currentChange: string | null;
  previousChange: string | null;
  nextChange: string | null;
  firstObservedAt: string | null;
}

export interface StatusGroup {
  /** The group's name; null for components outside any group. */
  name: string | null;
  /** The state the vendor states for the group itself, when it lists the group as a component. */
  own: StatusComponent | null;
  members: StatusComponent[];
  /** The worst state among the group and its members. */
  worst: ComponentStatus;
}

function byWorstThenName(a: StatusComponent, b: StatusComponent): number {
  return rankComponentStatus(b.status) - rankComponentStatus(a.status) || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1);
}

/**
 * The page as it was at a moment from what the store found: the grid (components worst first,
 * each with its group's name) and the incidents open then, each at its version of then.
 */
export function toStatusPage(facts: StatusFacts): StatusPage {
  const groupNames = new Map(facts.runs.filter((r) => r.isGroup).map((r) => [r.componentId, r.name]));
  const components: StatusComponent[] = facts.runs.map((r) => ({
    id: r.componentId, name: r.name, group: r.groupId === null ? null : (groupNames.get(r.groupId) ?? r.groupId),
    status: r.status, vendorStatus: r.vendorStatus, since: r.since, inferred: r.inferred,
  }));
  components.sort(byWorstThenName);
  const incidents = facts.incidents
    .filter((i) => i.open && i.statesEnd)
    .sort((a, b) => (a.kind === b.kind ? a.title.localeCompare(b.title) : a.kind === "incident" ? -1 : 1))
    .map(({ id, title, status, impact, seq }) => ({ id, title, status, impact, seq }));
  const grouped = new Map<string | null, StatusGroup>();
  const groupOf = (name: string | null) => {
    let g = grouped.get(name);
    if (!g) grouped.set(name, (g = { name, own: null, members: [], worst: "operational" }));
    return g;
  };
  for (const r of facts.runs) {
    const c = components.find((x) => x.id === r.componentId);
    if (!c) continue;
    if (r.isGroup) groupOf(c.name).own = c;
    else groupOf(c.group).members.push(c);
  }
  for (const g of grouped.values()) {
    g.members.sort(byWorstThenName);
    for (const c of [...(g.own ? [g.own] : []), ...g.members]) if (rankComponentStatus(c.status) > rankComponentStatus(g.worst)) g.worst = c.status;
  }
  const groups = [...grouped.values()].sort((a, b) => rankComponentStatus(b.worst) - rankComponentStatus(a.worst) || (a.name ?? "").localeCompare(b.name ?? ""));
  return {
    view: { vendor: facts.vendor.slug, at: facts.at, observedAt: facts.observedAt, components, incidents },
    vendorName: facts.vendor.name,
    standing: { kind: "then" },
    groups,
    incidents,
    nextObservedAt: facts.nextObservedAt,
    currentChange: facts.currentChange,
    previousChange: facts.previousChange,
    nextChange: facts.nextChange,
    firstObservedAt: facts.firstObservedAt,
  };
}

/**
 * The page as it is now: as of the last good capture while that is recent. When it is not (or
 * there never was one), the view says so rather than pass old states off as current: every
 * component is `unknown` since that capture (the vendor's word then kept beside it) and no
 * incident is counted open; the groups and incidents as last observed stay for pages to show.
 */
export function toStatusNowPage(facts: StatusFacts, nowFacts: Omit<VendorNowFacts, "unresolved">, now: Date): StatusPage {
  const page = toStatusPage(facts);
  const standing = describeNowStanding(nowFacts, now);
  if (standing.unknownSince === null && standing.asOf !== null) return { ...page, standing: { kind: "current", asOf: standing.asOf } };
  const since = standing.unknownSince ?? facts.at;
  return {
    ...page,
    standing: { kind: "unknown", ...standing, unknownSince: since },
    view: { ...page.view, components: page.view.components.map((c) => ({ ...c, status: "unknown", since })), incidents: [] },
  };
}

/** Why a moment cannot be shown: before the vendor's first good capture nothing is known. Null when it can. */
export function refuseBeforeArchive(facts: Pick<StatusFacts, "at" | "firstObservedAt" | "vendor">): string | null {
  if (facts.firstObservedAt === null) return `Redline has no good capture of ${facts.vendor.name} yet: nothing of its page is archived`;
  if (facts.at < facts.firstObservedAt) return `${facts.vendor.name} is archived from ${facts.firstObservedAt}: nothing is known of its page before`;
  return null;
}
