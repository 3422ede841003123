/**
 * incident.io status pages. Three public formats:
 * - `/feed.rss` and `/feed.atom`: one entry per incident with its latest update only, as
 *   `<b>Status: …</b>`, the message and `<b>Affected components</b><ul><li>Name (State)</li></ul>`
 *   (RSS subscriptions are listed at https://incident.io/status; the entry layout is as served by status.openai.com).
 * - the Widget API, `/api/v1/summary` once enabled: ongoing incidents and maintenances with their
 *   last message (https://docs.incident.io/status-pages/widget-api,
 *   https://help.incident.io/en/articles/9951011-embed-your-status-page-s-data-into-your-own-product).
 * - the Statuspage-compatible `/api/v2/incidents.json`, read with the Statuspage mapping. incident.io
 *   does not document it; it is what clients of status.openai.com and other incident.io pages poll.
 * The widget also gives each affected component's current state: the grid of affected components.
 * The feed and the widget show one message per incident, the latest: they state a partial update
 * list, so a message they stop showing is never read as removed. The feed, polled when
 * incidents.json is off, states only the title, status and messages the two share.
 */
import type { ComponentGrid } from "@/lib/components/component-grid";
import type { StatusWords } from "@/lib/components/component-status";
import type { StatedField } from "@/lib/derive/source-profile";
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import type { Component, Impact, Incident } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { deriveUpdateIds } from "@/lib/update-identity";
import {
  decodeJson,
  optionalUtcTimestampField,
  parseWithSchema,
  type Platform,
} from "@/scrapers/platforms/platform";
import { addComponentItems, type ComponentRead } from "@/scrapers/platforms/component-reader";
import { feedItemTime, readFeedItems, type ReadFeedItem } from "@/scrapers/platforms/feed-document";
import { joinPath, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";
import { statuspageIncidentsPlatform } from "@/scrapers/platforms/statuspage-incidents";

const STATUSES = new Map<string, string>([
  ["investigating", "investigating"],
  ["identified", "identified"],
  ["monitoring", "monitoring"],
  ["resolved", "resolved"],
  ["scheduled", "scheduled"],
  ["maintenance_scheduled", "scheduled"],
  ["in_progress", "in_progress"],
  ["maintenance_in_progress", "in_progress"],
  ["completed", "completed"],
  ["complete", "completed"],
  ["maintenance_complete", "completed"],
  ["maintenance_completed", "completed"],
]);
const MAINTENANCE_STATUSES = new Set(["scheduled", "in_progress", "completed"]);
const WORST_IMPACT = new Map<string, Impact>([
  ["degraded_performance", "minor"],
  ["partial_outage", "major"],
  ["full_outage", "critical"],
]);

/** "Maintenance in progress" → "in_progress"; a status incident.io may add later becomes null. */
function normalizeStatus(label: string | null | undefined): string | null {
  const key = (label ?? "").trim().toLowerCase().replace(/[\s-]+/g, "_");
  return STATUSES.get(key) ?? null;
}

function oneUpdate(at: string | null, body: string, status: string | null): Incident["updates"] {
  if (body === "") return [];
  const [id = "~undated"] = deriveUpdateIds([at ?? "undated"]);
  return [{ id, status, body, createdAt: at, displayAt: at }];
}

const STATUS_LINE = /<b>\s*Status:\s*([^<]*?)\s*<\/b>/i;
const COMPONENTS_HEADING = /<b>\s*Affected components\s*<\/b>/i;

function incidentPath(url: string | null): string | null {
  return url ? (/\/incidents\/([A-Za-z0-9_-]+)/.exec(url)?.[1] ?? null) : null;
}

function componentsOf(html: string): Component[] {
  return [...html.matchAll(/<li\b[^>]*>([\s\S]*?)<\/li>/gi)].flatMap((m) => {
    const name = htmlToText(m[1] ?? "").replace(/\s*\([^()]*\)$/, "").trim();
    return name === "" ? [] : [{ id: name, name }];
  });
}

/** What a feed entry's HTML says besides its status line. */
const FROM_CONTENT: ReadonlyArray<StatedField | "updates"> = ["status", "kind", "impact", "components", "updates"];

/**
 * One feed entry as an incident. Content without a "Status:" line is a layout this parser does not
 * know: the entry then states only its title and link. An unreadable date skips the one update.
 */
function readFeedEntry(reader: SnapshotReader, read: ReadFeedItem, seen: Set<string>): void {
  const { item, path } = read;
  const id = incidentPath(item.link) ?? incidentPath(item.id) ?? item.guid ?? item.id ?? item.link;
  if (id === null) {
    reader.unreadIncident(null, path, "entry has no /incidents/<id> link, guid or id");
    return;
  }
  if (seen.has(id)) return;
  seen.add(id);
  const statusMatch = STATUS_LINE.exec(item.html);
  if (!statusMatch) reader.warn(joinPath(path, "content"), "no <b>Status: …</b> line");
  const afterStatus = statusMatch ? item.html.slice((statusMatch.index ?? 0) + statusMatch[0].length) : "";
  const [messageHtml = "", componentsHtml = ""] = afterStatus.split(COMPONENTS_HEADING);
  const status = statusMatch ? normalizeStatus(statusMatch[1]) : null;
  const maintenance = status !== null && MAINTENANCE_STATUSES.has(status);
  // The entry's date is its latest update's, not the incident's start.
  const at = feedItemTime(read, "updated");
  const updates = oneUpdate(at ?? null, htmlToText(messageHtml), status);
  const incident: Incident = {
    vendor: reader.context.vendor,
    id,
    kind: maintenance ? "maintenance" : "incident",
    title: item.title ?? "",
    status,
    impact: maintenance ? "maintenance" : null,
    url: item.link ? item.link.replace(/([^:/])\/{2,}/g, "$1/") : null,
    startedAt: null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: componentsOf(componentsHtml),
    updates: at === undefined ? [] : updates,
    postmortem: null,
  };
  const unstated = statusMatch ? [] : FROM_CONTENT;
  reader.observe({ incident, path, unstated, partialUpdates: at === undefined && updates.length > 0 });
}

const widgetComponentShape = {
  id: z.string().min(1),
  name: z.string(),
  group_name: z.string().nullish(),
  current_status: z.string().nullish(),
};

/** incident.io's component states (https://docs.incident.io/api-reference/status-page-incidents-v2). */
export const INCIDENTIO_STATUS_WORDS: StatusWords = {
  operational: "operational",
  degraded_performance: "degraded",
  partial_outage: "partial-outage",
  full_outage: "major-outage",
  under_maintenance: "maintenance",
};

/**
 * An event's affected components: each one the incident names, and its current state added to the
 * snapshot's grid. Null when the list cannot be read whole: the incident then states no components.
 */
function readAffected(reader: SnapshotReader, raw: unknown, path: string, grid: ComponentGrid): Component[] | null {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    reader.warn(path, `expected a list, got ${typeof raw}`);
    grid.blind = true;
    return null;
  }
  const named: Component[] = [];
  let whole = true;
  addComponentItems(reader, grid, raw, path, INCIDENTIO_STATUS_WORDS, (item, at): ComponentRead => {
    const read = reader.fields(widgetComponentShape, item, at);
    const id = read?.values.id;
    if (!read || id === undefined) {
      whole = false;
      return { unreadId: null };
    }
    const { values: v, failed } = read;
    if (v.name === undefined || failed.size > 0) {
      whole = false;
      return { unreadId: id };
    }
    named.push({ id, name: v.name });
    // Affected but without a state: it keeps the one it had.
    if (!v.current_status) return { unreadId: id };
    return {
      component: { id, name: v.name, groupId: v.group_name || null, isGroup: false, vendorStatus: v.current_status, vendorChangedAt: null },
      statusPath: joinPath(at, "current_status"),
    };
  });
  return whole ? named : null;
}

const widgetEventShape = {
  id: z.string().min(1),
  name: z.string(),
  status: z.string().nullish(),
  url: z.string().nullish(),
  last_update_at: optionalUtcTimestampField,
  last_update_message: z.string().nullish(),
  current_worst_impact: z.string().nullish(),
  affected_components: z.unknown(),
  started_at: optionalUtcTimestampField,
  scheduled_end_at: optionalUtcTimestampField,
  starts_at: optionalUtcTimestampField,
  ends_at: optionalUtcTimestampField,
};

const widgetSchema = z.object({
  ongoing_incidents: z.array(z.unknown()),
  in_progress_maintenances: z.unknown().optional(),
  scheduled_maintenances: z.unknown().optional(),
});

/**
 * One widget event as an incident: a field that cannot be read is not stated, nor what is worked
 * out from it; the last message, whose status, time and text must all be read, is skipped otherwise.
 */
function readWidgetEvent(reader: SnapshotReader, raw: unknown, path: string, maintenance: boolean, seen: Set<string>, grid: ComponentGrid): void {
  const read = reader.fields(widgetEventShape, raw, path);
  const id = read?.values.id;
  if (!read || id === undefined) {
    // The reader has already said what was wrong at this path; which components it affects is not known.
    reader.unreadIncident(null, path);
    grid.blind = true;
    return;
  }
  if (seen.has(id)) return;
  seen.add(id);
  const { values: v, failed } = read;
  const unstated = new Set<StatedField | "updates">();
  const lose = (key: keyof typeof widgetEventShape & string, ...fields: StatedField[]) => {
    if (failed.has(key)) for (const f of fields) unstated.add(f);
  };
  lose("name", "title");
  lose("status", "status");
  lose("url", "url");
  lose("started_at", "startedAt");
  if (!maintenance) lose("current_worst_impact", "impact");
  if (maintenance) {
    lose("starts_at", "scheduledFor");
    if (v.starts_at === null) lose("started_at", "scheduledFor");
    lose("ends_at", "scheduledUntil");
    if (v.ends_at === null) lose("scheduled_end_at", "scheduledUntil");
  }
  const components = readAffected(reader, v.affected_components, joinPath(path, "affected_components"), grid);
  if (components === null) unstated.add("components");
  const status = normalizeStatus(v.status);
  const updates = oneUpdate(v.last_update_at ?? null, v.last_update_message ?? "", status);
  const messageRead = !failed.has("last_update_at") && !failed.has("last_update_message") && !failed.has("status");
  const incident: Incident = {
    vendor: reader.context.vendor,
    id,
    kind: maintenance ? "maintenance" : "incident",
    title: v.name ?? "",
    status,
    impact: maintenance ? "maintenance" : (WORST_IMPACT.get(v.current_worst_impact ?? "") ?? null),
    url: v.url ?? null,
    startedAt: v.started_at ?? null,
    resolvedAt: null,
    // An in-progress window states when it started and is due to end, a scheduled one its plan.
    scheduledFor: maintenance ? (v.starts_at ?? v.started_at ?? null) : null,
    scheduledUntil: maintenance ? (v.ends_at ?? v.scheduled_end_at ?? null) : null,
    components: components ?? [],
    updates: messageRead ? updates : [],
    postmortem: null,
  };
  const messageSkipped = !messageRead && (failed.has("last_update_message") || (v.last_update_message ?? "") !== "");
  reader.observe({ incident, path, unstated: [...unstated], partialUpdates: messageSkipped });
}

/**
 * The widget's events, and the grid of the components they affect. It lists no others, and in
 * incident.io only an incident or a maintenance takes a component off operational, so the grid is
 * of the affected components: one listed before and no longer is operational again.
 */
function parseIncidentioWidget(body: Uint8Array, reader: SnapshotReader): void {
  const raw = parseWithSchema(widgetSchema, decodeJson(body, reader.context), reader.context);
  const seen = new Set<string>();
  const grid: ComponentGrid = { components: [], unreadIds: [], blind: false, partial: "affected" };
  const lists = [
    { key: "ongoing_incidents", list: raw.ongoing_incidents, maintenance: false },
    { key: "in_progress_maintenances", list: raw.in_progress_maintenances, maintenance: true },
    { key: "scheduled_maintenances", list: raw.scheduled_maintenances, maintenance: true },
  ];
  for (const { key, list, maintenance } of lists) {
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) {
      reader.unreadIncident(null, key, `expected a list, got ${typeof list}`);
      grid.blind = true;
      continue;
    }
    list.forEach((event: unknown, i) => readWidgetEvent(reader, event, joinPath(key, i), maintenance, seen, grid));
  }
  reader.grid = grid;
}

export const incidentioFeedPlatform: Platform = {
  name: "incidentio-feed",
  description: "incident.io status page /feed.rss or /feed.atom: recent incidents, latest update only",
  profile: PLATFORM_PROFILES["incidentio-feed"],
  parserVersion: 1,
  async parse(body, ctx) {
    const reader = new SnapshotReader(ctx);
    const seen = new Set<string>();
    for (const read of await readFeedItems(reader, body, ctx)) readFeedEntry(reader, read, seen);
    return reader.snapshot();
  },
};

export const incidentioWidgetPlatform: Platform = {
  name: "incidentio-widget",
  description: "incident.io Widget API /api/v1/summary: ongoing incidents and maintenances, last message only, and the state of each component they affect",
  profile: PLATFORM_PROFILES["incidentio-widget"],
  parserVersion: 2,
  async parse(body, ctx) {
    const reader = new SnapshotReader(ctx);
    parseIncidentioWidget(body, reader);
    return reader.snapshot();
  },
};

export const incidentioIncidentsPlatform: Platform = {
  ...statuspageIncidentsPlatform,
  name: "incidentio-incidents",
  description: "incident.io Statuspage-compatible /api/v2/incidents.json: recent incidents with every update",
  profile: PLATFORM_PROFILES["incidentio-incidents"],
};

export const incidentioPlatforms: Platform[] = [incidentioFeedPlatform, incidentioWidgetPlatform, incidentioIncidentsPlatform];
