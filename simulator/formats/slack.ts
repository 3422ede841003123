/**
 * Slack status API v2.0.0 (https://docs.slack.dev/reference/slack-status-api): `current` wraps the
 * active incidents (notes newest first), `history` is a bare array (notes oldest first). Incident
 * ids are integers, notes have no ids, times are whole seconds in Pacific time; no postmortems.
 */
import type { Impact, Incident } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { integerBelow } from "@/simulator/seeded";
import { escapeXml, isOver, jsonBody, lastChangeOf, toSecond, type WireFormat } from "@/simulator/formats/wire-format";

const PACIFIC_OFFSET_MS = -8 * 3_600_000;
const TYPE_IMPACT: Record<string, Impact> = { incident: "minor", outage: "major", notice: "none", maintenance: "maintenance" };

function slackTime(time: string): string {
  return `${new Date(Date.parse(toSecond(time)) + PACIFIC_OFFSET_MS).toISOString().slice(0, 19)}-08:00`;
}

function typeOf(incident: Incident): string {
  if (incident.kind === "maintenance") return "maintenance";
  if (incident.impact === "major" || incident.impact === "critical") return "outage";
  return incident.impact === "none" ? "notice" : "incident";
}

function slackStatus(incident: Incident): string {
  if (incident.kind === "maintenance") return incident.status === "scheduled" ? "scheduled" : incident.status === "completed" ? "completed" : "active";
  return isOver(incident) ? "resolved" : "active";
}

export function slackIdOf(incident: Incident): number {
  return 1000 + integerBelow(9_000_000, incident.id, "slack-id");
}

function noteTime(incident: Incident, i: number): string {
  const u = incident.updates[i];
  return u?.displayAt ?? u?.createdAt ?? lastChangeOf(incident);
}

function incidentObject(incident: Incident, notesNewestFirst: boolean) {
  const notes = incident.updates.map((u, i) => ({ date_created: slackTime(noteTime(incident, i)), body: `<p>${escapeXml(u.body)}</p>` }));
  return {
    id: slackIdOf(incident),
    date_created: slackTime(incident.startedAt ?? lastChangeOf(incident)),
    date_updated: slackTime(lastChangeOf(incident)),
    title: incident.title,
    type: typeOf(incident),
    status: slackStatus(incident),
    url: incident.url,
    services: incident.components.map((c) => c.name),
    notes: notesNewestFirst ? notes.reverse() : notes,
  };
}

function readBackSlack(incident: Incident): Incident {
  const times = incident.updates.map((_, i) => toSecond(noteTime(incident, i)));
  const order = times.map((t, i) => ({ t, i })).sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.i - b.i));
  const ids = deriveUpdateIds(order.map((o) => o.t));
  const updates = order.map((o, n) => ({ id: ids[n] ?? o.t, status: null, body: incident.updates[o.i]?.body ?? "", createdAt: o.t, displayAt: o.t }));
  const status = slackStatus(incident);
  return {
    ...incident,
    id: String(slackIdOf(incident)),
    status,
    impact: TYPE_IMPACT[typeOf(incident)] ?? null,
    startedAt: toSecond(incident.startedAt ?? lastChangeOf(incident)),
    resolvedAt: status === "resolved" || status === "completed" ? (updates.at(-1)?.createdAt ?? null) : null,
    scheduledFor: null,
    scheduledUntil: null,
    components: incident.components.map((c) => ({ id: c.name, name: c.name })),
    updates,
    postmortem: null,
  };
}

export const slackFormat: WireFormat = {
  parser: "slack",
  contentType: "application/json",
  defaultPath: () => "/api/v2.0.0/current",
  select: (view) => view.incidents.filter((i) => slackStatus(i) === "active"),
  render(listed) {
    const updated = listed.map(lastChangeOf).sort().at(-1);
    return jsonBody({
      status: listed.length > 0 ? "active" : "ok",
      date_created: updated ? slackTime(updated) : null,
      date_updated: updated ? slackTime(updated) : null,
      active_incidents: listed.map((i) => incidentObject(i, true)),
    });
  },
  readBack: readBackSlack,
};

export const slackHistoryFormat: WireFormat = {
  parser: "slack-history",
  contentType: "application/json",
  defaultPath: () => "/api/v2.0.0/history",
  select: (view) => [...view.incidents],
  render: (listed) => jsonBody(listed.map((i) => incidentObject(i, false))),
  readBack: readBackSlack,
};
