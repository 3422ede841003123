/**
 * incident.io status pages: the Statuspage-compatible /api/v2/incidents.json (incidents only, every
 * update, times in UTC with milliseconds; incident.io models maintenance windows apart and
 * publishes no postmortem there) and /feed.rss, one item per incident and maintenance with its
 * latest update, a "<b>Status: …</b>" line and the affected components with their state; and the
 * Widget API's /api/v1/summary, the ongoing incidents and maintenances with their last message and
 * the current state of each component they affect (polled only at that exact URL).
 */
import type { ComponentReading } from "@/lib/components/component-grid";
import type { ComponentStatus } from "@/lib/components/component-status";
import { htmlToText } from "@/lib/html-to-text";
import type { Impact, Incident } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { codeOf } from "@/simulator/seeded";
import { renderRss, RSS_CONTENT_TYPE } from "@/simulator/formats/rss-document";
import {
  escapeXml,
  isOver,
  jsonBody,
  lastChangeOf,
  rfc822,
  statusLabel,
  textToHtml,
  toSecond,
  type VendorView,
  type WireFormat,
} from "@/simulator/formats/wire-format";

const STATUS_LABELS: Record<string, string> = {
  investigating: "Investigating",
  identified: "Identified",
  monitoring: "Monitoring",
  resolved: "Resolved",
  postmortem: "Resolved",
  scheduled: "Maintenance scheduled",
  in_progress: "Maintenance in progress",
  completed: "Maintenance complete",
};
/** The status incident.io shows: it has no "postmortem" status. */
const STATUS_SHOWN: Record<string, string> = { postmortem: "resolved" };
const MAINTENANCE_STATUSES = new Set(["scheduled", "in_progress", "completed"]);

function incidentUrl(view: VendorView, incident: Incident): string {
  return `${view.baseUrl}/incidents/${incident.id}`;
}

function shownStatus(incident: Incident): string | null {
  return incident.status === null ? null : (STATUS_SHOWN[incident.status] ?? incident.status);
}

function incidentObject(incident: Incident, view: VendorView) {
  return {
    id: incident.id,
    name: incident.title,
    status: shownStatus(incident),
    impact: incident.impact,
    created_at: incident.updates[0]?.createdAt ?? incident.startedAt,
    started_at: incident.startedAt,
    resolved_at: incident.resolvedAt,
    shortlink: incidentUrl(view, incident),
    components: incident.components.map((c) => ({ id: c.id, name: c.name })),
    incident_updates: [...incident.updates].reverse().map((u) => ({
      id: u.id,
      status: u.status,
      body: u.body,
      created_at: u.createdAt,
      display_at: u.displayAt,
    })),
  };
}

export const incidentioIncidentsFormat: WireFormat = {
  parser: "incidentio-incidents",
  contentType: "application/json; charset=utf-8",
  defaultPath: () => "/api/v2/incidents.json",
  select: (view) => view.incidents.filter((i) => i.kind === "incident"),
  render(listed, view) {
    const page = { id: codeOf(26, view.vendor, "incidentio-page").toUpperCase(), name: view.name, url: view.baseUrl };
    return jsonBody({ page, incidents: listed.map((i) => incidentObject(i, view)) });
  },
  readBack: (incident, view) => ({ ...incident, status: shownStatus(incident), url: incidentUrl(view, incident), postmortem: null }),
};

/** The state a component is listed in beside the incident, as incident.io words it. */
function componentState(incident: Incident): string {
  if (isOver(incident)) return "Operational";
  if (incident.kind === "maintenance") return incident.status === "in_progress" ? "Under maintenance" : "Operational";
  if (incident.impact === "critical") return "Full outage";
  return incident.impact === "major" ? "Partial outage" : "Degraded performance";
}

function labelOf(incident: Incident): string {
  return STATUS_LABELS[incident.status ?? ""] ?? statusLabel(incident.status ?? "unknown");
}

function latestOf(incident: Incident) {
  return incident.updates.at(-1);
}

function feedTime(incident: Incident): string {
  const latest = latestOf(incident);
  return toSecond(latest?.displayAt ?? latest?.createdAt ?? lastChangeOf(incident));
}

function entryHtml(incident: Incident): string {
  const status = `<b>Status: ${escapeXml(labelOf(incident))}</b><br/><br/>${textToHtml(latestOf(incident)?.body ?? "")}`;
  if (incident.components.length === 0) return status;
  const items = incident.components.map((c) => `<li>${textToHtml(c.name)} (${componentState(incident)})</li>`);
  return `${status}<br/><br/><b>Affected components</b><ul>${items.join("")}</ul>`;
}

function readBackFeed(incident: Incident, view: VendorView): Incident {
  // The parser reads each label back as the status it stands for; an unknown one as none.
  const status = incident.status !== null && Object.hasOwn(STATUS_LABELS, incident.status) ? shownStatus(incident) : null;
  const maintenance = status !== null && MAINTENANCE_STATUSES.has(status);
  const at = feedTime(incident);
  const body = htmlToText(textToHtml(latestOf(incident)?.body ?? ""));
  const [updateId = "~undated"] = deriveUpdateIds([at]);
  return {
    ...incident,
    kind: maintenance ? "maintenance" : "incident",
    status,
    impact: maintenance ? "maintenance" : null,
    url: incidentUrl(view, incident),
    startedAt: null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: incident.components.map((c) => ({ id: c.name, name: c.name })),
    updates: body === "" ? [] : [{ id: updateId, status, body, createdAt: at, displayAt: at }],
    postmortem: null,
  };
}

export const incidentioFeedFormat: WireFormat = {
  parser: "incidentio-feed",
  contentType: RSS_CONTENT_TYPE,
  defaultPath: () => "/feed.rss",
  select: (view) => [...view.incidents],
  render(listed, view) {
    const items = listed.map((i) => ({
      title: i.title,
      link: incidentUrl(view, i),
      guid: incidentUrl(view, i),
      pubDate: rfc822(feedTime(i)),
      description: entryHtml(i),
    }));
    return renderRss({ title: `${view.name} status`, link: `${view.baseUrl}/`, description: `Status updates from ${view.name}` }, items);
  },
  readBack: readBackFeed,
};

/** incident.io's words for a component's state and for an incident's worst impact. */
const WIDGET_STATE: Record<ComponentStatus, string> = {
  operational: "operational", degraded: "degraded_performance", "partial-outage": "partial_outage", "major-outage": "full_outage", maintenance: "under_maintenance", unknown: "operational",
};
const WORST_IMPACT: Partial<Record<Impact, string>> = { minor: "degraded_performance", major: "partial_outage", critical: "full_outage" };
const WIDGET_STATUS: Record<string, string> = { scheduled: "maintenance_scheduled", in_progress: "maintenance_in_progress" };

/** What the widget lists: ongoing incidents, and maintenances running or to come. */
function inWidget(incident: Incident): boolean {
  return incident.kind === "incident" ? !isOver(incident) : incident.status === "scheduled" || incident.status === "in_progress";
}

function lastUpdateAt(incident: Incident): string {
  const latest = latestOf(incident);
  return latest?.displayAt ?? latest?.createdAt ?? lastChangeOf(incident);
}

function widgetEvent(incident: Incident, view: VendorView) {
  const shown = new Map(view.grid.map((c) => [c.id, c]));
  const event: Record<string, unknown> = {
    id: incident.id,
    name: incident.title,
    status: WIDGET_STATUS[incident.status ?? ""] ?? shownStatus(incident),
    url: incidentUrl(view, incident),
    last_update_at: lastUpdateAt(incident),
    last_update_message: latestOf(incident)?.body ?? "",
    affected_components: incident.components.map((c) => {
      const s = shown.get(c.id);
      return { id: c.id, name: c.name, group_name: s?.group?.name ?? null, current_status: WIDGET_STATE[s?.status ?? "operational"] };
    }),
  };
  if (incident.kind === "incident") Object.assign(event, { current_worst_impact: incident.impact === null ? null : (WORST_IMPACT[incident.impact] ?? null), started_at: incident.startedAt });
  else if (incident.status === "in_progress") Object.assign(event, { started_at: incident.scheduledFor, scheduled_end_at: incident.scheduledUntil });
  else Object.assign(event, { starts_at: incident.scheduledFor, ends_at: incident.scheduledUntil });
  return event;
}

function readBackWidget(incident: Incident, view: VendorView): Incident {
  const maintenance = incident.kind === "maintenance";
  const status = maintenance ? incident.status : shownStatus(incident);
  const at = lastUpdateAt(incident);
  const body = latestOf(incident)?.body ?? "";
  const [updateId = "~undated"] = deriveUpdateIds([at]);
  return {
    ...incident,
    status,
    impact: maintenance ? "maintenance" : incident.impact !== null && WORST_IMPACT[incident.impact] ? incident.impact : null,
    url: incidentUrl(view, incident),
    resolvedAt: null,
    scheduledFor: maintenance ? incident.scheduledFor : null,
    scheduledUntil: maintenance ? incident.scheduledUntil : null,
    updates: body === "" ? [] : [{ id: updateId, status, body, createdAt: at, displayAt: at }],
    postmortem: null,
  };
}

/** The widget's grid: every component its events affect, once, in its state now. */
function readBackAffected(listed: readonly Incident[], view: VendorView): ComponentReading[] {
  const named = new Set(listed.flatMap((i) => i.components.map((c) => c.id)));
  return view.grid
    .filter((c) => named.has(c.id))
    .map((c) => ({ id: c.id, name: c.name, groupId: c.group?.name ?? null, isGroup: false, status: c.status, vendorStatus: WIDGET_STATE[c.status], vendorChangedAt: null }));
}

export const incidentioWidgetFormat: WireFormat = {
  parser: "incidentio-widget",
  contentType: "application/json; charset=utf-8",
  defaultPath: () => "/api/v1/summary",
  select: (view) => view.incidents.filter(inWidget),
  render(listed, view) {
    const events = (keep: (i: Incident) => boolean) => listed.filter(keep).map((i) => widgetEvent(i, view));
    return jsonBody({
      page_title: view.name,
      page_url: view.baseUrl,
      ongoing_incidents: events((i) => i.kind === "incident"),
      in_progress_maintenances: events((i) => i.kind === "maintenance" && i.status === "in_progress"),
      scheduled_maintenances: events((i) => i.kind === "maintenance" && i.status === "scheduled"),
    });
  },
  readBack: readBackWidget,
  readBackGrid: readBackAffected,
};
