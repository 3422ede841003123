/**
 * Google Cloud Service Health incidents.json (https://status.cloud.google.com/incidents.json):
 * incidents only (maintenance is not published there), updates newest first without ids, times
 * in whole seconds with "+00:00", and the postmortem as a last update headed "# Incident Report".
 */
import type { Impact, Incident } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { integerBelow } from "@/simulator/seeded";
import { jsonBody, lastChangeOf, toSecond, type WireFormat } from "@/simulator/formats/wire-format";

const STATUS_PAGE = "https://status.cloud.google.com/";
const REPORT_HEADING = "# Incident Report\n\n";
const UPDATE_STATUS: Record<string, string> = {
  investigating: "SERVICE_INFORMATION",
  identified: "SERVICE_DISRUPTION",
  monitoring: "SERVICE_DISRUPTION",
  resolved: "AVAILABLE",
};
const SEVERITY: Partial<Record<Impact, string>> = { minor: "low", major: "medium", critical: "high" };
const SEVERITY_IMPACT: Record<string, Impact> = { low: "minor", medium: "major", high: "critical" };

interface GcpUpdate {
  created: string;
  when: string;
  text: string;
  status: string;
}

function gcpTime(time: string): string {
  return toSecond(time).replace(/\.000Z$/, "+00:00");
}

function updateStatus(status: string | null): string {
  return UPDATE_STATUS[status ?? ""] ?? "SERVICE_INFORMATION";
}

/** Oldest first; the postmortem is the report update posted when it was published. */
function gcpUpdates(incident: Incident): GcpUpdate[] {
  const updates = incident.updates.map((u) => ({
    created: u.createdAt ?? lastChangeOf(incident),
    when: u.displayAt ?? u.createdAt ?? lastChangeOf(incident),
    text: u.body,
    status: updateStatus(u.status),
  }));
  const p = incident.postmortem;
  if (p) {
    const at = p.publishedAt ?? lastChangeOf(incident);
    updates.push({ created: at, when: at, text: REPORT_HEADING + p.body, status: "AVAILABLE" });
  }
  return updates;
}

function incidentObject(incident: Incident) {
  const updates = gcpUpdates(incident)
    .reverse()
    .map((u) => ({ created: gcpTime(u.created), modified: gcpTime(u.created), when: gcpTime(u.when), text: u.text, status: u.status, affected_locations: [] }));
  const [service] = incident.components;
  return {
    id: incident.id,
    number: `${1 + integerBelow(9e8, incident.id, "number")}${integerBelow(1e9, incident.id, "number-low")}`,
    begin: incident.startedAt ? gcpTime(incident.startedAt) : null,
    created: gcpTime(incident.updates[0]?.createdAt ?? lastChangeOf(incident)),
    ...(incident.resolvedAt ? { end: gcpTime(incident.resolvedAt) } : {}),
    modified: gcpTime(lastChangeOf(incident)),
    external_desc: incident.title,
    updates,
    most_recent_update: updates[0] ?? null,
    status_impact: incident.impact === "minor" ? "SERVICE_DISRUPTION" : "SERVICE_OUTAGE",
    severity: SEVERITY[incident.impact ?? "minor"] ?? "low",
    service_key: service?.id ?? "",
    service_name: service?.name ?? "",
    affected_products: incident.components.map((c) => ({ title: c.name, id: c.id })),
    uri: `incidents/${incident.id}`,
    currently_affected_locations: [],
    previously_affected_locations: [],
  };
}

function readBackGcp(incident: Incident): Incident {
  const oldestFirst = gcpUpdates(incident).sort((a, b) => (toSecond(a.created) < toSecond(b.created) ? -1 : 1));
  const ids = deriveUpdateIds(oldestFirst.map((u) => toSecond(u.created)));
  const latest = oldestFirst.at(-1);
  const severity = SEVERITY[incident.impact ?? "minor"] ?? "low";
  return {
    ...incident,
    kind: "incident",
    status: incident.resolvedAt ? "resolved" : (latest?.status.toLowerCase() ?? "ongoing"),
    impact: SEVERITY_IMPACT[severity] ?? null,
    url: `${STATUS_PAGE}incidents/${incident.id}`,
    startedAt: incident.startedAt ? toSecond(incident.startedAt) : null,
    resolvedAt: incident.resolvedAt ? toSecond(incident.resolvedAt) : null,
    scheduledFor: null,
    scheduledUntil: null,
    updates: oldestFirst.map((u, i) => ({
      id: ids[i] ?? u.created,
      status: u.status.toLowerCase(),
      body: u.text,
      createdAt: toSecond(u.created),
      displayAt: toSecond(u.when),
    })),
    postmortem: incident.postmortem
      ? { body: REPORT_HEADING + incident.postmortem.body, publishedAt: toSecond(incident.postmortem.publishedAt ?? lastChangeOf(incident)) }
      : null,
  };
}

export const gcpFormat: WireFormat = {
  parser: "gcp",
  contentType: "application/json",
  defaultPath: () => "/incidents.json",
  select: (view) => view.incidents.filter((i) => i.kind === "incident"),
  render: (listed) => jsonBody(listed.map(incidentObject)),
  readBack: readBackGcp,
};
