/**
 * AWS Service Health Dashboard data.json (https://status.aws.amazon.com/data.json, retired 2023):
 * `current` (unresolved) and `archive` (resolved) events keyed by service and start epoch, each
 * with an HTML timeline whose times carry a zone and, once the day changed, a date. Incidents only.
 */
import type { Incident } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { escapeXml, isOver, jsonBody, toMinute, toSecond, type WireFormat } from "@/simulator/formats/wire-format";

const DASHBOARD_URL = "https://status.aws.amazon.com/";
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

function serviceOf(incident: Incident): { key: string; name: string } {
  const name = incident.components[0]?.name ?? "Service";
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return { key: `${slug}-us-east-1`, name: `${name} (N. Virginia)` };
}

function epochOf(incident: Incident): string {
  return String(Math.floor(Date.parse(incident.startedAt ?? "1970-01-01T00:00:00.000Z") / 1000));
}

function statusCode(incident: Incident): string {
  if (isOver(incident)) return "0";
  if (incident.impact === "major" || incident.impact === "critical") return "3";
  return incident.impact === "minor" ? "2" : "1";
}

/** "9:05 AM UTC", or "Mar 15, 9:05 AM UTC" when the UTC day differs from the previous time's. */
function clockLabel(time: string, previousDay: string): string {
  const d = new Date(time);
  const hour = d.getUTCHours();
  const clock = `${hour % 12 === 0 ? 12 : hour % 12}:${String(d.getUTCMinutes()).padStart(2, "0")} ${hour < 12 ? "AM" : "PM"} UTC`;
  return time.slice(0, 10) === previousDay ? clock : `${MONTHS[d.getUTCMonth()] ?? ""} ${d.getUTCDate()}, ${clock}`;
}

function timeline(incident: Incident): Array<{ at: string; body: string }> {
  return incident.updates
    .map((u) => ({ at: toMinute(u.displayAt ?? u.createdAt ?? incident.startedAt ?? ""), body: u.body }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

function eventObject(incident: Incident) {
  const service = serviceOf(incident);
  let day = (incident.startedAt ?? "").slice(0, 10);
  const description = timeline(incident)
    .map((entry) => {
      const label = clockLabel(entry.at, day);
      day = entry.at.slice(0, 10);
      return `<div><span class="yellowfg">${label}</span>&nbsp;${escapeXml(entry.body)}</div>`;
    })
    .join("");
  return {
    service_name: service.name,
    summary: isOver(incident) ? `[RESOLVED] ${incident.title}` : incident.title,
    date: epochOf(incident),
    status: statusCode(incident),
    details: "",
    description,
    service: service.key,
  };
}

const STATUS_NAMES: Record<string, string> = { "0": "resolved", "1": "informational", "2": "degraded", "3": "disrupted" };

function readBackAws(incident: Incident): Incident {
  const service = serviceOf(incident);
  const entries = timeline(incident);
  const ids = deriveUpdateIds(entries.map((e) => e.at));
  return {
    ...incident,
    id: `${epochOf(incident)}-${service.key}`,
    kind: "incident",
    status: STATUS_NAMES[statusCode(incident)] ?? null,
    impact: null,
    url: DASHBOARD_URL,
    startedAt: incident.startedAt ? toSecond(incident.startedAt) : null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [{ id: service.key, name: service.name }],
    updates: entries.map((e, i) => ({ id: ids[i] ?? e.at, status: null, body: e.body, createdAt: e.at, displayAt: e.at })),
    postmortem: null,
  };
}

export const awsLegacyFormat: WireFormat = {
  parser: "aws-legacy",
  contentType: "application/json",
  defaultPath: () => "/data.json",
  select: (view) => view.incidents.filter((i) => i.kind === "incident"),
  render(listed) {
    return jsonBody({
      current: listed.filter((i) => !isOver(i)).map(eventObject),
      archive: listed.filter(isOver).map(eventObject),
    });
  },
  readBack: readBackAws,
};
