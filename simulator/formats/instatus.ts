/**
 * Instatus public /summary.json (https://instatus.com/help/api/public-data): the unresolved
 * incidents and the upcoming or running maintenances, each with a name, status, impact or
 * duration, start and link (…/incident/<id>, …/maintenance/<id>), no id, updates or components.
 * Times are JavaScript Date.toString() output in the page's time zone, to the second. And
 * /v2/components.json, the grid, which summary.json does not list.
 */
import type { ComponentStatus } from "@/lib/components/component-status";
import type { Impact, Incident } from "@/lib/incident";
import { affectingIncidents } from "@/simulator/components";
import { integerBelow } from "@/simulator/seeded";
import { isOver, iso, jsonBody, toSecond, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const ZONES = [
  { minutes: 0, name: "Coordinated Universal Time" },
  { minutes: 60, name: "Central European Standard Time" },
  { minutes: -300, name: "Eastern Standard Time" },
  { minutes: 330, name: "India Standard Time" },
] as const;
const INCIDENT_STATUSES = new Set(["investigating", "identified", "monitoring", "resolved"]);
const MAINTENANCE_STATUS: Record<string, string> = { scheduled: "NOTSTARTEDYET", in_progress: "INPROGRESS", completed: "COMPLETED" };
const IMPACT_STATE: Partial<Record<Impact, string>> = {
  none: "OPERATIONAL",
  minor: "DEGRADEDPERFORMANCE",
  major: "PARTIALOUTAGE",
  critical: "MAJOROUTAGE",
};

const pad = (n: number): string => String(n).padStart(2, "0");

/** "Mon Mar 02 2026 10:15:00 GMT+0100 (Central European Standard Time)". */
function jsDate(time: string, view: VendorView): string {
  const zone = ZONES[integerBelow(ZONES.length, view.vendor, "instatus-zone")] ?? ZONES[0];
  const d = new Date(Date.parse(time) + zone.minutes * 60_000);
  const clock = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const abs = Math.abs(zone.minutes);
  const offset = `${zone.minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
  return `${DAYS[d.getUTCDay()] ?? ""} ${MONTHS[d.getUTCMonth()] ?? ""} ${pad(d.getUTCDate())} ${d.getUTCFullYear()} ${clock} GMT${offset} (${zone.name})`;
}

function eventUrl(incident: Incident, view: VendorView): string {
  return `${view.baseUrl}/${incident.kind === "maintenance" ? "maintenance" : "incident"}/${incident.id}`;
}

/** Whole minutes from the window's start to its end, as Instatus states a maintenance's length. */
function durationOf(incident: Incident): number | null {
  if (!incident.scheduledFor || !incident.scheduledUntil) return null;
  return Math.round((Date.parse(incident.scheduledUntil) - Date.parse(incident.scheduledFor)) / 60_000);
}

function startOf(incident: Incident): string | null {
  return incident.kind === "maintenance" ? incident.scheduledFor : incident.startedAt;
}

function isActive(incident: Incident): boolean {
  return incident.kind === "incident" ? !isOver(incident) : incident.status === "scheduled" || incident.status === "in_progress";
}

function pageStatus(listed: readonly Incident[]): string {
  if (listed.some((i) => i.kind === "incident")) return "HASISSUES";
  return listed.some((i) => i.status === "in_progress") ? "UNDERMAINTENANCE" : "UP";
}

function render(listed: readonly Incident[], view: VendorView): string {
  const time = (incident: Incident) => {
    const start = startOf(incident);
    return start === null ? null : jsDate(start, view);
  };
  return jsonBody({
    page: { name: view.name, url: view.baseUrl, status: pageStatus(listed) },
    activeIncidents: listed
      .filter((i) => i.kind === "incident")
      .map((i) => ({
        name: i.title,
        started: time(i),
        status: (i.status ?? "").toUpperCase(),
        impact: IMPACT_STATE[i.impact ?? "minor"] ?? "DEGRADEDPERFORMANCE",
        url: eventUrl(i, view),
      })),
    activeMaintenances: listed
      .filter((i) => i.kind === "maintenance")
      .map((i) => ({
        name: i.title,
        start: time(i),
        status: MAINTENANCE_STATUS[i.status ?? ""] ?? "NOTSTARTEDYET",
        duration: durationOf(i),
        url: eventUrl(i, view),
      })),
  });
}

function readBack(incident: Incident, view: VendorView): Incident {
  const start = startOf(incident);
  const started = start === null ? null : toSecond(start);
  const base = { ...incident, url: eventUrl(incident, view), startedAt: started, resolvedAt: null, components: [], updates: [], postmortem: null };
  if (incident.kind === "incident") {
    const impact = IMPACT_STATE[incident.impact ?? "minor"] === undefined ? "minor" : (incident.impact ?? "minor");
    const status = incident.status !== null && INCIDENT_STATUSES.has(incident.status) ? incident.status : null;
    return { ...base, status, impact, scheduledFor: null, scheduledUntil: null };
  }
  const duration = durationOf(incident);
  return {
    ...base,
    status: MAINTENANCE_STATUS[incident.status ?? ""] === undefined ? "scheduled" : incident.status,
    impact: "maintenance",
    scheduledFor: started,
    scheduledUntil: started === null || duration === null ? null : iso(Date.parse(started) + duration * 60_000),
  };
}

export const instatusSummaryFormat: WireFormat = {
  parser: "instatus-summary",
  contentType: "application/json; charset=utf-8",
  defaultPath: () => "/summary.json",
  select: (view) => view.incidents.filter(isActive),
  render,
  readBack,
};

/** A component's state in Instatus's words (the shared vocabulary has no "unknown" Instatus shows). */
const INSTATUS_STATE: Record<ComponentStatus, string> = {
  operational: "OPERATIONAL", degraded: "DEGRADEDPERFORMANCE", "partial-outage": "PARTIALOUTAGE", "major-outage": "MAJOROUTAGE", maintenance: "UNDERMAINTENANCE", unknown: "UNKNOWN",
};

/** /v2/components.json: every component in its state, in its group by id and name. */
function renderComponents(_listed: readonly Incident[], view: VendorView): string {
  return jsonBody({
    components: view.grid.map((c, order) => ({
      id: c.id, name: c.name, status: INSTATUS_STATE[c.status], description: "", showUptime: true, order, group: c.group ? { id: c.group.id, name: c.group.name } : null,
    })),
  });
}

export const instatusComponentsFormat: WireFormat = {
  parser: "instatus-components",
  contentType: "application/json; charset=utf-8",
  defaultPath: () => "/v2/components.json",
  listsIncidents: false,
  select: (view) => affectingIncidents(view.incidents),
  render: renderComponents,
  readBack: (incident) => incident,
  readBackGrid: (_listed, view) =>
    view.grid.map((c) => ({ id: c.id, name: c.name, groupId: c.group?.name ?? null, isGroup: false, status: c.status, vendorStatus: INSTATUS_STATE[c.status], vendorChangedAt: null })),
};
