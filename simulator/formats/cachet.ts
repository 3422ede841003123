/**
 * Cachet, the self-hosted status page: 2.x's API v1 /api/v1/incidents ({meta, data}, numeric
 * statuses, one component id) and 3.x's /api/incidents (JSON:API with components and updates under
 * `included`), both newest first by id, times "YYYY-MM-DD HH:MM:SS" in UTC. An incident's first
 * update is its own `message`; the others are its updates. Cachet states no impact or postmortem,
 * has no "in progress" for a maintenance, and 3.x lists maintenance (schedules) elsewhere.
 */
import type { Incident, IncidentUpdate } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { fingerprintOf } from "@/simulator/seeded";
import { jsonBody, lastChangeOf, toSecond, type VendorView, type WireFormat } from "@/simulator/formats/wire-format";

const PER_PAGE = 50;
const STATUS_NAMES = ["scheduled", "investigating", "identified", "watching", "fixed"];
const STATUS_CODES: Record<string, number> = {
  scheduled: 0,
  investigating: 1,
  identified: 2,
  monitoring: 3,
  in_progress: 3,
  resolved: 4,
  postmortem: 4,
  completed: 4,
};

/** Sequential ids as Cachet's are: the minute of creation, unique since a vendor's steps are minutes apart. */
function serialOf(time: string | null): number {
  return Math.floor(Date.parse(time ?? "1970-01-01T00:00:00.000Z") / 60_000);
}

function cachetIdOf(incident: Incident): number {
  return serialOf(incident.startedAt ?? incident.updates[0]?.createdAt ?? null);
}

const updateIdOf = (u: IncidentUpdate): number => serialOf(u.createdAt ?? u.displayAt);

/** "2026-03-04 10:05:09". */
function cachetTime(time: string | null): string | null {
  return time === null ? null : time.slice(0, 19).replace("T", " ");
}

/** An incident's status; a maintenance stays "scheduled", Cachet's only maintenance status. */
function incidentCode(incident: Incident): number {
  return incident.kind === "maintenance" ? 0 : (STATUS_CODES[incident.status ?? ""] ?? 1);
}

const updateCode = (u: IncidentUpdate): number => STATUS_CODES[u.status ?? ""] ?? 1;
const humanStatus = (code: number): string => {
  const name = STATUS_NAMES[code] ?? "investigating";
  return name.charAt(0).toUpperCase() + name.slice(1);
};
const shownAt = (u: IncidentUpdate): string | null => u.displayAt ?? u.createdAt;

function incidentUrl(view: VendorView, incident: Incident): string {
  return `${view.baseUrl}/incidents/${cachetIdOf(incident)}`;
}

/** Cachet's number of a component listed now. */
export function componentNumber(view: VendorView, id: string): number | null {
  return view.components.find((c) => c.id === id)?.number ?? null;
}

function componentNumbers(incident: Incident, view: VendorView): number[] {
  return incident.components.flatMap((c) => componentNumber(view, c.id) ?? []);
}

function newestFirst(incidents: readonly Incident[]): Incident[] {
  return [...incidents].sort((a, b) => cachetIdOf(b) - cachetIdOf(a)).slice(0, PER_PAGE);
}

/** What both versions read back: the message as first update, the rest by time, "fixed" as resolution. */
function readBackCachet(incident: Incident, view: VendorView): Incident {
  const [first, ...rest] = incident.updates;
  const code = incidentCode(incident);
  const maintenance = code === 0;
  const createdAt = first?.createdAt ? toSecond(first.createdAt) : null;
  const scheduledAt = maintenance ? incident.scheduledFor : createdAt;
  const startedAt = incident.startedAt ? toSecond(incident.startedAt) : ((maintenance ? null : scheduledAt) ?? createdAt);
  const [messageId = "~undated"] = deriveUpdateIds([createdAt ?? startedAt ?? "undated"]);
  const message = (first?.body ?? "").trim();
  const opening: IncidentUpdate[] = message === "" ? [] : [{ id: messageId, status: null, body: message, createdAt, displayAt: startedAt ?? createdAt }];
  const later = rest
    .map((u) => {
      const at = toSecond(shownAt(u) ?? lastChangeOf(incident));
      return { id: String(updateIdOf(u)), status: STATUS_NAMES[updateCode(u)] ?? null, body: u.body, createdAt: at, displayAt: at };
    })
    .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  let fixedSince: string | null = null;
  for (const u of later) fixedSince = u.status === "fixed" ? (fixedSince ?? u.createdAt) : null;
  const status = STATUS_NAMES[code] ?? null;
  return {
    ...incident,
    id: String(cachetIdOf(incident)),
    kind: maintenance ? "maintenance" : "incident",
    status,
    impact: maintenance ? "maintenance" : null,
    url: incidentUrl(view, incident),
    startedAt,
    resolvedAt: status === "fixed" ? fixedSince : null,
    scheduledFor: maintenance && scheduledAt ? toSecond(scheduledAt) : null,
    scheduledUntil: null,
    updates: [...opening, ...later],
    postmortem: null,
  };
}

function v2Incident(incident: Incident, view: VendorView) {
  const [first, ...rest] = incident.updates;
  const code = incidentCode(incident);
  const url = incidentUrl(view, incident);
  const created = first?.createdAt ?? null;
  return {
    id: cachetIdOf(incident),
    component_id: componentNumbers(incident, view)[0] ?? 0,
    name: incident.title,
    status: code,
    visible: 1,
    message: first?.body ?? "",
    scheduled_at: cachetTime(code === 0 ? incident.scheduledFor : created),
    occurred_at: cachetTime(incident.startedAt),
    created_at: cachetTime(created),
    updated_at: cachetTime(lastChangeOf(incident)),
    deleted_at: null,
    human_status: humanStatus(code),
    permalink: url,
    updates: [...rest].reverse().map((u) => ({
      id: updateIdOf(u),
      incident_id: cachetIdOf(incident),
      status: updateCode(u),
      message: u.body,
      user_id: 1,
      created_at: cachetTime(shownAt(u)),
      updated_at: cachetTime(shownAt(u)),
      human_status: humanStatus(updateCode(u)),
      permalink: `${url}#update-${updateIdOf(u)}`,
    })),
  };
}

export const cachetV2Format: WireFormat = {
  parser: "cachet-v2",
  contentType: "application/json",
  defaultPath: () => "/api/v1/incidents",
  select: (view) => newestFirst(view.incidents),
  render(listed, view) {
    const n = listed.length;
    const pagination = { total: n, count: n, per_page: PER_PAGE, current_page: 1, total_pages: 1, links: { next_page: null, previous_page: null } };
    return jsonBody({ meta: { pagination }, data: listed.map((i) => v2Incident(i, view)) });
  },
  readBack(incident, view) {
    const [n] = componentNumbers(incident, view).slice(0, 1);
    return { ...readBackCachet(incident, view), components: n === undefined ? [] : [{ id: String(n), name: String(n) }] };
  },
};

/** 3.x times: the relative "human" form Cachet adds would make the body depend on the hour it is read. */
const timeObject = (time: string | null) => ({ string: cachetTime(time) });

function v3Incident(incident: Incident, view: VendorView) {
  const code = incidentCode(incident);
  const id = cachetIdOf(incident);
  const guid = fingerprintOf(`${view.vendor}|${incident.id}|cachet-guid`);
  return {
    id: String(id),
    type: "incidents",
    attributes: {
      id,
      guid: `${guid.slice(0, 8)}-${guid.slice(8, 12)}-${guid.slice(12, 16)}-${guid.slice(16, 20)}-${guid.slice(20, 32)}`,
      name: incident.title,
      message: incident.updates[0]?.body ?? "",
      visible: 1,
      stickied: false,
      notifications: 1,
      status: { human: humanStatus(code), value: code },
      occurred: timeObject(incident.startedAt),
      created: timeObject(incident.updates[0]?.createdAt ?? null),
      updated: timeObject(lastChangeOf(incident)),
    },
    relationships: {
      components: { data: componentNumbers(incident, view).map((n) => ({ type: "components", id: String(n) })) },
      updates: { data: incident.updates.slice(1).map((u) => ({ type: "updates", id: String(updateIdOf(u)) })) },
    },
  };
}

function v3Included(listed: readonly Incident[], view: VendorView): unknown[] {
  const components = view.components.map((c) => ({ id: String(c.number), type: "components", attributes: { id: c.number, name: c.name } }));
  const updates = listed.flatMap((incident) =>
    incident.updates.slice(1).map((u) => ({
      id: String(updateIdOf(u)),
      type: "updates",
      attributes: {
        id: updateIdOf(u),
        updateable_id: cachetIdOf(incident),
        updateable_type: "incident",
        message: u.body,
        status: { human: humanStatus(updateCode(u)), value: updateCode(u) },
        created: timeObject(shownAt(u)),
      },
    })),
  );
  return [...components, ...updates];
}

export const cachetV3Format: WireFormat = {
  parser: "cachet-v3",
  contentType: "application/json",
  defaultPath: () => "/api/incidents",
  select: (view) => newestFirst(view.incidents.filter((i) => i.kind === "incident")),
  render(listed, view) {
    const n = listed.length;
    return jsonBody({
      data: listed.map((i) => v3Incident(i, view)),
      links: { first: `${view.baseUrl}/api/incidents?page=1`, last: `${view.baseUrl}/api/incidents?page=1`, prev: null, next: null },
      meta: { current_page: 1, from: n > 0 ? 1 : null, last_page: 1, path: `${view.baseUrl}/api/incidents`, per_page: PER_PAGE, to: n > 0 ? n : null, total: n },
      included: v3Included(listed, view),
    });
  },
  readBack(incident, view) {
    const names = new Map(view.components.map((c) => [c.number, c.name]));
    const components = componentNumbers(incident, view).map((n) => ({ id: String(n), name: names.get(n) ?? String(n) }));
    return { ...readBackCachet(incident, view), components };
  },
};
