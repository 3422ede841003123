/**
 * Better Stack status pages.
 * - `/index.json` (https://betterstack.com/docs/uptime/status-pages/subscribing-to-status-updates/subscribing-to-api/):
 *   a JSON:API document whose `included` holds the page's status reports, their status updates and
 *   the page resources they affect. Report and update attributes as in the Uptime API
 *   (https://betterstack.com/docs/uptime/api/status-page-reports-api-response-params/,
 *   https://betterstack.com/docs/uptime/api/status-page-report-updates-api-response-params/).
 * - `/feed.rss` (https://betterstack.com/docs/uptime/status-pages/subscribing-to-status-updates/subscribing-to-rss/):
 *   one item per status update, linked to its report at …/incident/<id>.
 * Resource states: resolved, degraded, downtime, maintenance; the worst one seen is the impact.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { exactProfile, statingOnly } from "@/lib/derive/source-profile";
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import { type Component, type Impact, type Incident, type IncidentUpdate, keepFirstById } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import {
  decodeJson,
  optionalUtcTimestampField,
  parseWithSchema,
  type ParseContext,
  type Platform,
  utcTimestampField,
} from "@/scrapers/platforms/platform";
import { type FeedItem, feedItemTime, invalidFeedItem, readFeedItems } from "@/scrapers/platforms/feed-document";

const idField = z.union([z.string().min(1), z.number().int()]).transform(String);
const affectedSchema = z.array(z.object({ status_page_resource_id: idField, status: z.string().nullish() })).nullish();
const linkSchema = z.object({ data: z.object({ id: idField }).nullish() }).nullish();
const linksSchema = z.object({ data: z.array(z.object({ id: idField })).nullish() }).nullish();

const reportSchema = z.object({
  id: idField,
  type: z.literal("status_report"),
  attributes: z.object({
    title: z.string(),
    report_type: z.string().nullish(),
    starts_at: optionalUtcTimestampField,
    ends_at: optionalUtcTimestampField,
    aggregate_state: z.string().nullish(),
    affected_resources: affectedSchema,
  }),
  relationships: z.object({ status_updates: linksSchema }).nullish(),
});
type Report = z.infer<typeof reportSchema>;

const updateSchema = z.object({
  id: idField,
  type: z.literal("status_update"),
  attributes: z.object({
    message: z.string().nullish(),
    published_at: utcTimestampField,
    status_report_id: idField.nullish(),
    affected_resources: affectedSchema,
  }),
  relationships: z.object({ status_report: linkSchema }).nullish(),
});
type Update = z.infer<typeof updateSchema>;

const resourceSchema = z.object({
  id: idField,
  type: z.literal("status_page_resource"),
  attributes: z.object({ public_name: z.string().nullish() }),
});

function parseIncluded(value: unknown) {
  const type = typeof value === "object" && value !== null && "type" in value ? value.type : undefined;
  if (type === "status_report") return reportSchema.safeParse(value);
  if (type === "status_update") return updateSchema.safeParse(value);
  if (type === "status_page_resource") return resourceSchema.safeParse(value);
  return null;
}

// A union would report "invalid input" at the entry; choosing by type names the failing field.
const includedSchema = z.unknown().transform((value, ctx) => {
  const result = parseIncluded(value);
  if (result === null) return { type: "other" as const };
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

export const betterstackIndexSchema = z.object({
  data: z.object({
    type: z.literal("status_page"),
    attributes: z.object({ custom_domain: z.string().nullish(), subdomain: z.string().nullish() }),
  }),
  included: z.array(includedSchema).nullish(),
});

const STATE_RANK: Record<string, number> = { resolved: 0, operational: 0, maintenance: 1, degraded: 2, downtime: 3 };
const STATE_IMPACT: Record<string, Impact> = { degraded: "minor", downtime: "critical" };

/** The worst resource state listed, or null when none is known. */
function worstState(states: ReadonlyArray<string | null | undefined>): string | null {
  let worst: string | null = null;
  for (const raw of states) {
    const state = (raw ?? "").toLowerCase();
    const rank = STATE_RANK[state];
    if (rank !== undefined && (worst === null || rank > (STATE_RANK[worst] ?? 0))) worst = state === "operational" ? "resolved" : state;
  }
  return worst;
}

function compareTimes(a: string | null, b: string | null): number {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}

function pageOrigin(attributes: { custom_domain?: string | null; subdomain?: string | null }): string | null {
  if (attributes.custom_domain) return `https://${attributes.custom_domain.replace(/\/+$/, "")}`;
  return attributes.subdomain ? `https://${attributes.subdomain}.betteruptime.com` : null;
}

function reportStatus(report: Report, updates: readonly IncidentUpdate[], observedAt: string): string | null {
  const a = report.attributes;
  if (a.report_type === "maintenance") {
    if (a.aggregate_state?.toLowerCase() === "maintenance") return "in_progress";
    return a.starts_at !== null && a.starts_at > observedAt ? "scheduled" : "completed";
  }
  const state = a.aggregate_state ? worstState([a.aggregate_state]) : (updates.at(-1)?.status ?? null);
  return state === "maintenance" ? null : state;
}

/** The first update of the closing run of all-resolved updates. */
function resolvedAtOf(updates: readonly IncidentUpdate[]): string | null {
  let at: string | null = null;
  for (const u of updates) at = u.status === "resolved" ? (at ?? u.displayAt) : null;
  return at;
}

function reshapeReport(report: Report, own: readonly Update[], names: ReadonlyMap<string, string>, origin: string | null, ctx: ParseContext): Incident {
  const a = report.attributes;
  const updates: IncidentUpdate[] = [...own]
    .sort((x, y) => compareTimes(x.attributes.published_at, y.attributes.published_at))
    .map((u) => ({
      id: u.id,
      status: worstState((u.attributes.affected_resources ?? []).map((r) => r.status)),
      body: u.attributes.message ?? "",
      createdAt: u.attributes.published_at,
      displayAt: u.attributes.published_at,
    }));
  const maintenance = a.report_type === "maintenance";
  const affected = [...(a.affected_resources ?? []), ...own.flatMap((u) => u.attributes.affected_resources ?? [])];
  const components = new Map<string, Component>();
  for (const r of affected) components.set(r.status_page_resource_id, { id: r.status_page_resource_id, name: names.get(r.status_page_resource_id) ?? r.status_page_resource_id });
  const status = reportStatus(report, updates, ctx.observedAt);
  const worst = worstState([a.aggregate_state, ...affected.map((r) => r.status)]);
  return {
    vendor: ctx.vendor,
    id: report.id,
    kind: maintenance ? "maintenance" : "incident",
    title: a.title,
    status,
    impact: maintenance ? "maintenance" : worst === null ? null : (STATE_IMPACT[worst] ?? "none"),
    url: origin ? `${origin}/incident/${report.id}` : null,
    startedAt: a.starts_at ?? updates[0]?.createdAt ?? null,
    resolvedAt: status === "resolved" ? resolvedAtOf(updates) : null,
    scheduledFor: maintenance ? a.starts_at : null,
    scheduledUntil: maintenance ? a.ends_at : null,
    components: [...components.values()],
    updates,
    postmortem: null,
  };
}

export function parseBetterstackIndex(body: Uint8Array, ctx: ParseContext): Incident[] {
  const raw = parseWithSchema(betterstackIndexSchema, decodeJson(body, ctx), ctx);
  const included = raw.included ?? [];
  const names = new Map<string, string>();
  const updates: Update[] = [];
  const reports: Report[] = [];
  for (const entry of included) {
    if (entry.type === "status_page_resource") names.set(entry.id, entry.attributes.public_name ?? entry.id);
    else if (entry.type === "status_update") updates.push(entry);
    else if (entry.type === "status_report") reports.push(entry);
  }
  const origin = pageOrigin(raw.data.attributes);
  return keepFirstById(
    reports.map((report) => {
      const listed = new Set((report.relationships?.status_updates?.data ?? []).map((d) => d.id));
      const own = updates.filter(
        (u) => listed.has(u.id) || (u.attributes.status_report_id ?? u.relationships?.status_report?.data?.id) === report.id,
      );
      return reshapeReport(report, own, names, origin, ctx);
    }),
  );
}

const TITLE_STATUS = /^\s*\[([^\]]+)\]\s*/;
const FEED_STATUSES = new Set(["investigating", "identified", "monitoring", "resolved", "degraded", "downtime", "maintenance", "scheduled", "in_progress", "completed"]);

function reshapeFeedReport(key: string, items: readonly FeedItem[], vendor: string): Incident {
  const oldestFirst = [...items].sort((x, y) => compareTimes(feedItemTime(x), feedItemTime(y)));
  const times = oldestFirst.map((item) => feedItemTime(item) ?? "undated");
  const derived = deriveUpdateIds(times);
  const updates = oldestFirst.map((item, i) => {
    const label = TITLE_STATUS.exec(item.title ?? "")?.[1]?.trim().toLowerCase().replace(/\s+/g, "_") ?? "";
    const at = feedItemTime(item);
    return { id: item.guid ?? derived[i] ?? key, status: FEED_STATUSES.has(label) ? label : null, body: htmlToText(item.html), createdAt: at, displayAt: at };
  });
  const latest = oldestFirst.at(-1);
  return {
    vendor,
    id: key,
    kind: "incident",
    title: (latest?.title ?? "").replace(TITLE_STATUS, "").trim(),
    status: updates.at(-1)?.status ?? null,
    impact: null,
    url: latest?.link ?? null,
    startedAt: updates[0]?.createdAt ?? null,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates,
    postmortem: null,
  };
}

async function parseBetterstackFeed(body: Uint8Array, ctx: ParseContext): Promise<Incident[]> {
  const groups = new Map<string, FeedItem[]>();
  (await readFeedItems(body, ctx)).forEach((item, i) => {
    const key = /\/incidents?\/([A-Za-z0-9_-]+)/.exec(item.link ?? "")?.[1];
    if (!key) throw invalidFeedItem(ctx, `items[${i}].link`, "no …/incident/<id> link");
    groups.set(key, [...(groups.get(key) ?? []), item]);
  });
  return [...groups].map(([key, items]) => reshapeFeedReport(key, items, ctx.vendor));
}

export const betterstackIndexPlatform: Platform = {
  name: "betterstack-index",
  description: "Better Stack status page /index.json: status reports with their updates and affected resources",
  profile: exactProfile({ kind: "recent", limit: null }),
  parserVersion: 1,
  async parse(body, ctx) {
    return wholeSnapshot(parseBetterstackIndex(body, ctx));
  },
};

export const betterstackRssPlatform: Platform = {
  name: "betterstack-rss",
  description: "Better Stack status page /feed.rss: one item per status update, grouped by report",
  // The feed holds the most recent updates, so a report's first ones leave it first; its statuses
  // ("[Investigating]") and update ids differ in kind from index.json's, which it stands in for.
  profile: statingOnly({ kind: "recent", limit: null }, ["title"]),
  parserVersion: 1,
  async parse(body, ctx) {
    return wholeSnapshot(await parseBetterstackFeed(body, ctx));
  },
};

export const betterstackPlatforms: Platform[] = [betterstackIndexPlatform, betterstackRssPlatform];
