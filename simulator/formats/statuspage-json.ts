/**
 * Atlassian Statuspage public API v2 (https://developer.statuspage.io/): incidents.json and
 * scheduled-maintenances.json (50 most recent), summary.json (unresolved only, with the grid),
 * components.json (the grid) and incidents/<id>.json, with the page's time-zone offset on every
 * timestamp as real pages do.
 */
import type { ComponentReading } from "@/lib/components/component-grid";
import type { ComponentStatus } from "@/lib/components/component-status";
import type { Incident } from "@/lib/incident";
import { affectingIncidents, groupsOf } from "@/simulator/components";
import { codeOf, integerBelow } from "@/simulator/seeded";
import { isOver, jsonBody, lastChangeOf, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";

const RECENT_LIMIT = 50;
const PAGE_OFFSETS = [0, -420, 60, 330] as const;
const ACTIVE_MAINTENANCE = new Set(["scheduled", "in_progress", "verifying"]);

function offsetOf(view: VendorView): number {
  return PAGE_OFFSETS[integerBelow(PAGE_OFFSETS.length, view.vendor, "time-zone")] ?? 0;
}

/** "2024-03-04T09:58:12.120+01:00", or "…Z" on a UTC page. */
function withOffset(time: string | null, minutes: number): string | null {
  if (time === null) return null;
  if (minutes === 0) return time;
  const local = new Date(Date.parse(time) + minutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${local}${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function pageOf(view: VendorView, listed: readonly Incident[]) {
  const latest = listed.map(lastChangeOf).sort().at(-1) ?? null;
  return {
    id: codeOf(12, view.vendor, "page"),
    name: view.name,
    url: view.baseUrl,
    time_zone: "Etc/UTC",
    updated_at: withOffset(latest, offsetOf(view)),
  };
}

function incidentObject(incident: Incident, view: VendorView): Record<string, unknown> {
  const offset = offsetOf(view);
  const at = (time: string | null) => withOffset(time, offset);
  const pageId = codeOf(12, view.vendor, "page");
  const monitoring = incident.updates.find((u) => u.status === "monitoring");
  const object: Record<string, unknown> = {
    id: incident.id,
    name: incident.title,
    status: incident.status,
    created_at: at(incident.updates[0]?.createdAt ?? incident.startedAt),
    updated_at: at(lastChangeOf(incident)),
    monitoring_at: at(monitoring?.createdAt ?? null),
    resolved_at: at(incident.resolvedAt),
    impact: incident.impact,
    shortlink: `https://stspg.io/${codeOf(10, incident.id, "shortlink")}`,
    started_at: at(incident.startedAt),
    page_id: pageId,
    incident_updates: [...incident.updates].reverse().map((u) => ({
      id: u.id,
      status: u.status,
      body: u.body,
      incident_id: incident.id,
      created_at: at(u.createdAt),
      updated_at: at(u.createdAt),
      display_at: at(u.displayAt),
      affected_components: null,
      deliver_notifications: true,
      custom_tweet: null,
      tweet_id: null,
    })),
    components: incident.components.map((c, position) => ({
      id: c.id,
      name: c.name,
      status: "operational",
      position: position + 1,
      page_id: pageId,
      group_id: null,
    })),
    reminder_intervals: null,
  };
  if (incident.kind === "maintenance") {
    Object.assign(object, {
      scheduled_for: at(incident.scheduledFor),
      scheduled_until: at(incident.scheduledUntil),
      scheduled_remind_prior: true,
      scheduled_auto_in_progress: true,
      scheduled_auto_completed: true,
    });
  }
  if (incident.postmortem) {
    Object.assign(object, {
      postmortem_body: incident.postmortem.body,
      postmortem_published_at: at(incident.postmortem.publishedAt),
    });
  }
  return object;
}

const identity = (incident: Incident): Incident => incident;
const CONTENT_TYPE = "application/json; charset=utf-8";

export const statuspageIncidentsFormat: WireFormat = {
  parser: "statuspage-incidents",
  contentType: CONTENT_TYPE,
  defaultPath: () => "/api/v2/incidents.json",
  select(view, path) {
    const kind = path.endsWith("/scheduled-maintenances.json") ? "maintenance" : "incident";
    return view.incidents.filter((i) => i.kind === kind).slice(0, RECENT_LIMIT);
  },
  render(listed, view, path) {
    const key = path.endsWith("/scheduled-maintenances.json") ? "scheduled_maintenances" : "incidents";
    return jsonBody({ page: pageOf(view, listed), [key]: listed.map((i) => incidentObject(i, view)) });
  },
  readBack: identity,
};

const STATUSPAGE_STATE: Record<ComponentStatus, string> = {
  operational: "operational", degraded: "degraded_performance", "partial-outage": "partial_outage", "major-outage": "major_outage", maintenance: "under_maintenance", unknown: "unknown",
};

/** The grid as Statuspage lists it: each group as a component in its worst member's state, followed by its members. */
function componentObjects(view: VendorView): Array<Record<string, unknown>> {
  const pageId = codeOf(12, view.vendor, "page");
  const groups = new Map(groupsOf(view.grid).map((g) => [g.id, g]));
  const out: Array<Record<string, unknown>> = [];
  const listedGroups = new Set<string>();
  for (const c of view.grid) {
    const group = c.group ? groups.get(c.group.id) : undefined;
    if (group && !listedGroups.has(group.id)) {
      listedGroups.add(group.id);
      out.push({ id: group.id, name: group.name, status: STATUSPAGE_STATE[group.status], position: out.length + 1, page_id: pageId, group_id: null, group: true, components: group.members.map((m) => m.id) });
    }
    out.push({ id: c.id, name: c.name, status: STATUSPAGE_STATE[c.status], position: out.length + 1, page_id: pageId, group_id: group?.id ?? null, group: false });
  }
  return out;
}

/** The grid as the Statuspage reader reads it back: groups as components of their own. */
function readBackGrid(_listed: readonly Incident[], view: VendorView): ComponentReading[] {
  const reading = (c: { id: string; name: string; status: ComponentStatus }, groupId: string | null, isGroup: boolean): ComponentReading => ({
    id: c.id, name: c.name, groupId, isGroup, status: c.status, vendorStatus: STATUSPAGE_STATE[c.status], vendorChangedAt: null,
  });
  return [...groupsOf(view.grid).map((g) => reading(g, null, true)), ...view.grid.map((c) => reading(c, c.group?.id ?? null, false))];
}

function indicatorOf(unresolved: readonly Incident[]): { indicator: string; description: string } {
  if (unresolved.some((i) => i.impact === "major" || i.impact === "critical")) return { indicator: "major", description: "Partial System Outage" };
  if (unresolved.some((i) => i.impact === "minor")) return { indicator: "minor", description: "Minor Service Outage" };
  if (unresolved.some((i) => i.status === "in_progress")) return { indicator: "maintenance", description: "Service Under Maintenance" };
  return { indicator: "none", description: "All Systems Operational" };
}

export const statuspageSummaryFormat: WireFormat = {
  parser: "statuspage-summary",
  contentType: CONTENT_TYPE,
  defaultPath: () => "/api/v2/summary.json",
  select(view) {
    return view.incidents.filter((i) =>
      i.kind === "incident" ? !isOver(i) : i.status !== null && ACTIVE_MAINTENANCE.has(i.status),
    );
  },
  render(listed, view) {
    const incidents = listed.filter((i) => i.kind === "incident");
    const maintenances = listed.filter((i) => i.kind === "maintenance");
    return jsonBody({
      page: pageOf(view, listed),
      components: componentObjects(view),
      incidents: incidents.map((i) => incidentObject(i, view)),
      scheduled_maintenances: maintenances.map((i) => incidentObject(i, view)),
      status: indicatorOf(listed),
    });
  },
  readBack: identity,
  readBackGrid,
};

export const statuspageComponentsFormat: WireFormat = {
  parser: "statuspage-components",
  contentType: CONTENT_TYPE,
  defaultPath: () => "/api/v2/components.json",
  listsIncidents: false,
  select: (view) => affectingIncidents(view.incidents),
  render: (listed, view) => jsonBody({ page: pageOf(view, listed), components: componentObjects(view) }),
  readBack: identity,
  readBackGrid,
};

const SINGLE_PATH = /\/api\/v2\/incidents\/([a-z0-9]+)\.json$/;

export const statuspageIncidentFormat: WireFormat = {
  parser: "statuspage-incident",
  contentType: CONTENT_TYPE,
  defaultPath: (view) => `/api/v2/incidents/${view.incidents.find((i) => i.kind === "incident")?.id ?? "none"}.json`,
  select(view, path) {
    const id = SINGLE_PATH.exec(path)?.[1];
    const incident = view.incidents.find((i) => i.id === id);
    return incident ? [incident] : null;
  },
  render(listed, view) {
    const [incident] = listed;
    return jsonBody({ page: pageOf(view, listed), incident: incident ? incidentObject(incident, view) : null });
  },
  readBack: identity,
};
