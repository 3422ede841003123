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
 * The feed and the widget show one message per incident, so they state no update list: the first
 * message seen is kept and later ones never read as removals of earlier ones. The feed, polled when
 * incidents.json is off, states only the title and status the two share.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { exactProfile, statingOnly } from "@/lib/derive/source-profile";
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import { type Component, type Impact, type Incident, keepFirstById } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import {
  decodeJson,
  optionalUtcTimestampField,
  parseWithSchema,
  type ParseContext,
  type Platform,
} from "@/scrapers/platforms/platform";
import { type FeedItem, invalidFeedItem, readFeedItems } from "@/scrapers/platforms/feed-document";
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

function reshapeFeedEntry(item: FeedItem, index: number, ctx: ParseContext): Incident {
  const html = item.html;
  const statusMatch = STATUS_LINE.exec(html);
  if (!statusMatch) throw invalidFeedItem(ctx, `items[${index}].content`, "no <b>Status: …</b> line");
  const id = incidentPath(item.link) ?? incidentPath(item.id) ?? item.guid ?? item.id ?? item.link;
  if (id === null) throw invalidFeedItem(ctx, `items[${index}]`, "entry has no /incidents/<id> link, guid or id");
  const afterStatus = html.slice((statusMatch.index ?? 0) + statusMatch[0].length);
  const [messageHtml = "", componentsHtml = ""] = afterStatus.split(COMPONENTS_HEADING);
  const status = normalizeStatus(statusMatch[1]);
  const maintenance = status !== null && MAINTENANCE_STATUSES.has(status);
  // The entry's date is its latest update's, not the incident's start.
  const at = item.updated ?? item.published;
  return {
    vendor: ctx.vendor,
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
    updates: oneUpdate(at, htmlToText(messageHtml), status),
    postmortem: null,
  };
}

const widgetComponentSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  group_name: z.string().nullish(),
  current_status: z.string().nullish(),
});

const widgetEventSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  status: z.string().nullish(),
  url: z.string().nullish(),
  last_update_at: optionalUtcTimestampField,
  last_update_message: z.string().nullish(),
  current_worst_impact: z.string().nullish(),
  affected_components: z.array(widgetComponentSchema).nullish(),
  started_at: optionalUtcTimestampField,
  scheduled_end_at: optionalUtcTimestampField,
  starts_at: optionalUtcTimestampField,
  ends_at: optionalUtcTimestampField,
});
type WidgetEvent = z.infer<typeof widgetEventSchema>;

export const incidentioWidgetSchema = z.object({
  page_title: z.string().nullish(),
  page_url: z.string().nullish(),
  ongoing_incidents: z.array(widgetEventSchema),
  in_progress_maintenances: z.array(widgetEventSchema).nullish(),
  scheduled_maintenances: z.array(widgetEventSchema).nullish(),
});

function reshapeWidgetEvent(raw: WidgetEvent, maintenance: boolean, vendor: string): Incident {
  const status = normalizeStatus(raw.status);
  return {
    vendor,
    id: raw.id,
    kind: maintenance ? "maintenance" : "incident",
    title: raw.name,
    status,
    impact: maintenance ? "maintenance" : (WORST_IMPACT.get(raw.current_worst_impact ?? "") ?? null),
    url: raw.url ?? null,
    startedAt: raw.started_at,
    resolvedAt: null,
    // An in-progress window states when it started and is due to end, a scheduled one its plan.
    scheduledFor: maintenance ? (raw.starts_at ?? raw.started_at) : null,
    scheduledUntil: maintenance ? (raw.ends_at ?? raw.scheduled_end_at) : null,
    components: (raw.affected_components ?? []).map((c) => ({ id: c.id, name: c.name })),
    updates: oneUpdate(raw.last_update_at, raw.last_update_message ?? "", status),
    postmortem: null,
  };
}

export function parseIncidentioWidget(body: Uint8Array, ctx: ParseContext): Incident[] {
  const raw = parseWithSchema(incidentioWidgetSchema, decodeJson(body, ctx), ctx);
  const incidents = raw.ongoing_incidents.map((e) => reshapeWidgetEvent(e, false, ctx.vendor));
  const maintenances = [...(raw.in_progress_maintenances ?? []), ...(raw.scheduled_maintenances ?? [])];
  return keepFirstById([...incidents, ...maintenances.map((e) => reshapeWidgetEvent(e, true, ctx.vendor))]);
}

export const incidentioFeedPlatform: Platform = {
  name: "incidentio-feed",
  description: "incident.io status page /feed.rss or /feed.atom: recent incidents, latest update only",
  // It stands in for incidents.json, whose components are keyed by id and whose links come from the page URL.
  profile: statingOnly({ kind: "recent", limit: null }, ["title", "status"]),
  parserVersion: 1,
  async parse(body, ctx) {
    const items = await readFeedItems(body, ctx);
    return wholeSnapshot(keepFirstById(items.map((item, i) => reshapeFeedEntry(item, i, ctx))));
  },
};

export const incidentioWidgetPlatform: Platform = {
  name: "incidentio-widget",
  description: "incident.io Widget API /api/v1/summary: ongoing incidents and maintenances, last message only",
  profile: statingOnly({ kind: "active" }, ["kind", "title", "status", "impact", "url", "components", "scheduledFor", "scheduledUntil"]),
  parserVersion: 1,
  async parse(body, ctx) {
    return wholeSnapshot(parseIncidentioWidget(body, ctx));
  },
};

export const incidentioIncidentsPlatform: Platform = {
  ...statuspageIncidentsPlatform,
  name: "incidentio-incidents",
  description: "incident.io Statuspage-compatible /api/v2/incidents.json: recent incidents with every update",
  profile: exactProfile({ kind: "recent", limit: null }),
};

export const incidentioPlatforms: Platform[] = [incidentioFeedPlatform, incidentioWidgetPlatform, incidentioIncidentsPlatform];
