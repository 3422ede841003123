/**
 * Better Stack status pages: /index.json, a JSON:API document whose `included` holds the page's
 * resources (the components), status reports and status updates, each report and update naming
 * the resources it affects and their state (resolved, degraded, downtime, maintenance); and
 * /feed.rss, one item per status update, "[Status] Title", linked to its report at …/incident/<id>.
 * Better Stack states resource states, not incident statuses, and publishes no postmortems. Each
 * resource also carries its current state, in its section (the component groups).
 */
import { htmlToText } from "@/lib/html-to-text";
import type { ComponentReading } from "@/lib/components/component-grid";
import type { ComponentStatus } from "@/lib/components/component-status";
import type { Incident, IncidentUpdate } from "@/lib/incident";
import { integerBelow } from "@/simulator/seeded";
import { renderRss, RSS_CONTENT_TYPE } from "@/simulator/formats/rss-document";
import {
  isOver,
  jsonBody,
  rfc822,
  statusLabel,
  textToHtml,
  toSecond,
  type VendorView,
  type WireFormat,
} from "@/simulator/formats/wire-format";

type State = "resolved" | "degraded" | "downtime" | "maintenance";
const STATE_RANK: Record<State, number> = { resolved: 0, maintenance: 1, degraded: 2, downtime: 3 };
const CLOSING_STATUSES = new Set(["resolved", "completed"]);
/** The feed holds this many of the latest status updates. */
const FEED_LIMIT = 50;

const worse = (a: State, b: State): State => (STATE_RANK[b] > STATE_RANK[a] ? b : a);

/** What the incident's resources suffer while it is open. */
function openState(incident: Incident): State {
  if (incident.kind === "maintenance") return "maintenance";
  return incident.impact === "major" || incident.impact === "critical" ? "downtime" : "degraded";
}

/** The resources' state an update reports; the model keeps no impact per update, so it is the incident's. */
function updateState(incident: Incident, update: IncidentUpdate): State {
  return update.status !== null && CLOSING_STATUSES.has(update.status) ? "resolved" : openState(incident);
}

function reportState(incident: Incident): State {
  if (incident.kind === "maintenance") return incident.status === "completed" ? "resolved" : "maintenance";
  return isOver(incident) ? "resolved" : openState(incident);
}

/** The page's own summary of the report: "maintenance" only while the window runs. */
function aggregateState(incident: Incident): string {
  if (incident.kind === "maintenance") return incident.status === "in_progress" ? "maintenance" : "operational";
  return isOver(incident) ? "operational" : openState(incident);
}

/** The aggregate as a resource state, as the parser ranks it ("operational" reads as "resolved"). */
function aggregateAsState(incident: Incident): State {
  return aggregateState(incident) === "operational" ? "resolved" : openState(incident);
}

const publishedAt = (u: IncidentUpdate): string => u.displayAt ?? u.createdAt ?? "1970-01-01T00:00:00.000Z";

function reportUrl(view: VendorView, incident: Incident): string {
  return `https://${new URL(view.baseUrl).host}/incident/${incident.id}`;
}

/** A resource's state as Better Stack words it: it has no partial outage, and calls any outage downtime. */
const RESOURCE_STATE: Record<ComponentStatus, string> = {
  operational: "operational", degraded: "degraded", "partial-outage": "downtime", "major-outage": "downtime", maintenance: "maintenance", unknown: "not_monitored",
};
const READ_STATE: Record<string, ComponentStatus> = { operational: "operational", degraded: "degraded", downtime: "major-outage", maintenance: "maintenance", not_monitored: "unknown" };

/** The page's sections: its component groups, numbered in the order they appear. */
function sectionsOf(view: VendorView): Map<string, { id: string; name: string }> {
  const sections = new Map<string, { id: string; name: string }>();
  for (const c of view.grid) if (c.group && !sections.has(c.group.id)) sections.set(c.group.id, { id: String(301 + sections.size), name: c.group.name });
  return sections;
}

function renderIndex(listed: readonly Incident[], view: VendorView): string {
  const sections = sectionsOf(view);
  const affected = (incident: Incident, state: State) => incident.components.map((c) => ({ status_page_resource_id: c.id, status: state }));
  const pageState = listed.map(aggregateAsState).reduce(worse, "resolved");
  const included: unknown[] = [...sections.values()].map((s, position) => ({ id: s.id, type: "status_page_section", attributes: { name: s.name, position } }));
  for (const c of view.grid) {
    const section = c.group ? (sections.get(c.group.id)?.id ?? null) : null;
    included.push({ id: c.id, type: "status_page_resource", attributes: { status_page_section_id: section, public_name: c.name, resource_type: "Monitor", status: RESOURCE_STATE[c.status] } });
  }
  for (const incident of listed) {
    const maintenance = incident.kind === "maintenance";
    included.push({
      id: incident.id,
      type: "status_report",
      attributes: {
        title: incident.title,
        report_type: maintenance ? "maintenance" : "manual",
        starts_at: maintenance ? incident.scheduledFor : incident.startedAt,
        ends_at: maintenance ? incident.scheduledUntil : incident.resolvedAt,
        affected_resources: affected(incident, reportState(incident)),
        aggregate_state: aggregateState(incident),
      },
      relationships: { status_updates: { data: incident.updates.map((u) => ({ id: u.id, type: "status_update" })) } },
    });
    for (const u of incident.updates) {
      included.push({
        id: u.id,
        type: "status_update",
        attributes: { message: u.body, published_at: publishedAt(u), status_report_id: incident.id, affected_resources: affected(incident, updateState(incident, u)) },
      });
    }
  }
  const host = new URL(view.baseUrl).host;
  return jsonBody({
    data: {
      id: String(100 + integerBelow(900_000, view.vendor, "betterstack-page")),
      type: "status_page",
      attributes: {
        company_name: view.name,
        company_url: view.baseUrl,
        timezone: "UTC",
        subdomain: view.vendor,
        custom_domain: host,
        aggregate_state: pageState === "resolved" ? "operational" : pageState,
      },
      relationships: {
        sections: { data: [...sections.values()].map((section) => ({ id: section.id, type: "status_page_section" })) },
        resources: { data: view.grid.map((c) => ({ id: c.id, type: "status_page_resource" })) },
        status_reports: { data: listed.map((i) => ({ id: i.id, type: "status_report" })) },
      },
    },
    included,
  });
}

const byPublished = (a: IncidentUpdate, b: IncidentUpdate): number => (publishedAt(a) < publishedAt(b) ? -1 : publishedAt(a) > publishedAt(b) ? 1 : 0);

/** The first update of the closing run of resolved ones. */
function resolvedAtOf(updates: readonly IncidentUpdate[]): string | null {
  let at: string | null = null;
  for (const u of updates) at = u.status === "resolved" ? (at ?? u.displayAt) : null;
  return at;
}

/** The parser reads an update's status, and the report's impact, from the resource states it lists. */
function readBackIndex(incident: Incident, view: VendorView): Incident {
  const listsResources = incident.components.length > 0;
  const updates = [...incident.updates].sort(byPublished).map((u) => {
    const at = publishedAt(u);
    return { id: u.id, status: listsResources ? updateState(incident, u) : null, body: u.body, createdAt: at, displayAt: at };
  });
  const stated: State[] = listsResources ? [reportState(incident), ...incident.updates.map((u) => updateState(incident, u))] : [];
  const worst = stated.reduce(worse, aggregateAsState(incident));
  const base = { ...incident, url: reportUrl(view, incident), components: incident.components, updates, postmortem: null };
  if (incident.kind === "maintenance") {
    const starts = incident.scheduledFor;
    // The parser tells scheduled from completed by when it reads the page: here, when this state began.
    const status = incident.status === "in_progress" ? "in_progress" : starts !== null && starts > view.at ? "scheduled" : "completed";
    const startedAt = starts ?? updates[0]?.createdAt ?? null;
    return { ...base, status, impact: "maintenance", startedAt, resolvedAt: null };
  }
  const status = aggregateAsState(incident);
  return {
    ...base,
    status,
    impact: worst === "downtime" ? "critical" : worst === "degraded" ? "minor" : "none",
    startedAt: incident.startedAt ?? updates[0]?.createdAt ?? null,
    resolvedAt: status === "resolved" ? resolvedAtOf(updates) : null,
    scheduledFor: null,
    scheduledUntil: null,
  };
}

/** Every resource in its state, in its section by name; an outage read back as Better Stack's downtime. */
function readBackResources(_listed: readonly Incident[], view: VendorView): ComponentReading[] {
  return view.grid.map((c) => {
    const word = RESOURCE_STATE[c.status];
    return { id: c.id, name: c.name, groupId: c.group?.name ?? null, isGroup: false, status: READ_STATE[word] ?? "unknown", vendorStatus: word, vendorChangedAt: null };
  });
}

export const betterstackIndexFormat: WireFormat = {
  parser: "betterstack-index",
  contentType: "application/json; charset=utf-8",
  defaultPath: () => "/index.json",
  select: (view) => [...view.incidents],
  render: renderIndex,
  readBack: readBackIndex,
  readBackGrid: readBackResources,
};

interface FeedEntry {
  incident: Incident;
  update: IncidentUpdate;
  at: string;
}

/** The feed's items: the most recent status updates of the incidents given, newest first. */
function feedEntries(incidents: readonly Incident[]): FeedEntry[] {
  const entries = incidents.flatMap((incident) => incident.updates.map((update) => ({ incident, update, at: toSecond(publishedAt(update)) })));
  const key = (e: FeedEntry) => `${e.at}|${e.incident.id}|${e.update.id}`;
  return entries.sort((a, b) => (key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0)).slice(0, FEED_LIMIT);
}

const feedLink = (view: VendorView, incident: Incident): string => `${view.baseUrl}/incident/${incident.id}`;
const feedTitle = (e: FeedEntry): string => `[${statusLabel(e.update.status ?? "update")}] ${e.incident.title}`;

function renderFeed(listed: readonly Incident[], view: VendorView): string {
  const items = feedEntries(listed).map((e) => ({
    title: feedTitle(e),
    link: feedLink(view, e.incident),
    guid: `${feedLink(view, e.incident)}#update-${e.update.id}`,
    pubDate: rfc822(e.at),
    description: textToHtml(e.update.body),
  }));
  return renderRss({ title: `${view.name} Status`, link: view.baseUrl, description: `Status updates from ${view.name}` }, items);
}

const FEED_STATUSES = new Set(["investigating", "identified", "monitoring", "resolved", "degraded", "downtime", "maintenance", "scheduled", "in_progress", "completed"]);

function readBackFeed(incident: Incident, view: VendorView): Incident {
  const own = feedEntries(view.incidents)
    .filter((e) => e.incident.id === incident.id)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  const updates = own.map((e) => {
    const label = statusLabel(e.update.status ?? "update").toLowerCase().replace(/\s+/g, "_");
    return { id: `${feedLink(view, incident)}#update-${e.update.id}`, status: FEED_STATUSES.has(label) ? label : null, body: htmlToText(textToHtml(e.update.body)), createdAt: e.at, displayAt: e.at };
  });
  return {
    ...incident,
    kind: "incident",
    status: updates.at(-1)?.status ?? null,
    impact: null,
    url: feedLink(view, incident),
    startedAt: updates[0]?.createdAt ?? null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates,
    postmortem: null,
  };
}

export const betterstackRssFormat: WireFormat = {
  parser: "betterstack-rss",
  contentType: RSS_CONTENT_TYPE,
  defaultPath: () => "/feed.rss",
  select(view) {
    const shown = new Set(feedEntries(view.incidents).map((e) => e.incident.id));
    return view.incidents.filter((i) => shown.has(i.id));
  },
  render: renderFeed,
  readBack: readBackFeed,
};
