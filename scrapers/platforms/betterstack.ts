/**
 * Better Stack status pages.
 * - `/index.json` (https://betterstack.com/docs/uptime/status-pages/subscribing-to-status-updates/subscribing-to-api/):
 *   a JSON:API document whose `included` holds the page's status reports, their status updates and
 *   the page resources they affect. Report and update attributes as in the Uptime API
 *   (https://betterstack.com/docs/uptime/api/status-page-reports-api-response-params/,
 *   https://betterstack.com/docs/uptime/api/status-page-report-updates-api-response-params/).
 * - `/feed.rss` (https://betterstack.com/docs/uptime/status-pages/subscribing-to-status-updates/subscribing-to-rss/):
 *   one item per status update, linked to its report at …/incident/<id>.
 * Resource states: resolved, degraded, downtime, maintenance; the worst one seen is the impact. The
 * resources themselves, with their current state and section, are the page's component grid.
 */
import type { ComponentGrid } from "@/lib/components/component-grid";
import type { StatusWords } from "@/lib/components/component-status";
import type { Observation, ParsedSnapshot } from "@/lib/derive/observation";
import type { StatedField, Statement } from "@/lib/derive/source-profile";
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import type { Component, Impact, Incident, IncidentUpdate } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { deriveUpdateIds } from "@/lib/update-identity";
import {
  decodeJson,
  optionalUtcTimestampField,
  parseWithSchema,
  type ParseContext,
  type Platform,
  utcTimestampField,
} from "@/scrapers/platforms/platform";
import { addComponentItems, type ComponentRead } from "@/scrapers/platforms/component-reader";
import { feedItemTime, readFeedItems, type ReadFeedItem } from "@/scrapers/platforms/feed-document";
import { isRecord, joinPath, type ReadFields, type ReadObject, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const idField = z.union([z.string().min(1), z.number().int()]).transform(String);
const affectedSchema = z.array(z.object({ status_page_resource_id: idField, status: z.string().nullish() })).nullish();
const linkSchema = z.object({ data: z.object({ id: idField }).nullish() }).nullish();
const linksSchema = z.object({ data: z.array(z.object({ id: idField })).nullish() }).nullish();

const reportEntryShape = { id: idField, attributes: z.unknown(), relationships: z.object({ status_updates: linksSchema }).nullish() };
const reportShape = {
  title: z.string(),
  report_type: z.string().nullish(),
  starts_at: optionalUtcTimestampField,
  ends_at: optionalUtcTimestampField,
  aggregate_state: z.string().nullish(),
  affected_resources: affectedSchema,
};
type ReportValues = ReadFields<typeof reportShape>;

const updateEntryShape = { id: idField, attributes: z.unknown(), relationships: z.object({ status_report: linkSchema }).nullish() };
const updateShape = {
  message: z.string().nullish(),
  published_at: utcTimestampField,
  status_report_id: idField.nullish(),
  affected_resources: affectedSchema,
};

const resourceEntryShape = { id: idField, attributes: z.unknown() };
const resourceShape = { public_name: z.string().nullish(), status: z.string().nullish(), status_page_section_id: idField.nullish() };
const sectionShape = { name: z.string().nullish() };

/** A resource's state (…/subscribing-to-api/, "Resource status values"); `not_monitored` says Better Stack does not know. */
export const BETTERSTACK_STATUS_WORDS: StatusWords = {
  operational: "operational",
  degraded: "degraded",
  downtime: "major-outage",
  maintenance: "maintenance",
  not_monitored: "unknown",
};

const pageSchema = z.object({
  data: z.object({ type: z.literal("status_page"), attributes: z.record(z.string(), z.unknown()) }),
  included: z.array(z.unknown()).nullish(),
});
const pageAttributesShape = { custom_domain: z.string().nullish(), subdomain: z.string().nullish() };

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

/** The page's origin; undefined when the attribute it comes from cannot be read. */
function pageOrigin(reader: SnapshotReader, raw: Record<string, unknown>): string | null | undefined {
  const read = reader.fields(pageAttributesShape, raw, "data.attributes");
  if (!read || read.failed.has("custom_domain")) return undefined;
  const { custom_domain: domain, subdomain } = read.values;
  if (domain) return `https://${domain.replace(/\/+$/, "")}`;
  if (read.failed.has("subdomain")) return undefined;
  return subdomain ? `https://${subdomain}.betteruptime.com` : null;
}

/** The status and whether it is worked out (a maintenance's from its window, an incident's from its last update). */
function reportStatus(a: ReportValues, updates: readonly IncidentUpdate[], observedAt: string): { status: string | null; at: Statement } {
  const startsAt = a.starts_at ?? null;
  if (a.report_type === "maintenance") {
    if (a.aggregate_state?.toLowerCase() === "maintenance") return { status: "in_progress", at: "exact" };
    return { status: startsAt !== null && startsAt > observedAt ? "scheduled" : "completed", at: "inferred" };
  }
  const state = a.aggregate_state ? worstState([a.aggregate_state]) : (updates.at(-1)?.status ?? null);
  return { status: state === "maintenance" ? null : state, at: a.aggregate_state ? "exact" : "inferred" };
}

/** The first update of the closing run of all-resolved updates. */
function resolvedAtOf(updates: readonly IncidentUpdate[]): string | null {
  let at: string | null = null;
  for (const u of updates) at = u.status === "resolved" ? (at ?? u.displayAt) : null;
  return at;
}

interface ReadUpdate {
  id: string;
  published: string;
  message: string;
  affected: Array<{ status_page_resource_id: string; status?: string | null }>;
  /** The report it names, by status_report_id or else its relationship. */
  report: string | null;
}

/** An update that could not be read whole, with what is known of whose it is. */
interface BrokenUpdate {
  id: string | null;
  report: string | null;
  /** Whether the report it names could be read (`report`, or null for none). */
  placed: boolean;
}

interface ReadReport {
  id: string;
  path: string;
  values: ReportValues;
  failed: ReadonlySet<string>;
  listed: ReadonlySet<string>;
  /** It names its updates (relationships.status_updates): only those can be its own. */
  listsUpdates: boolean;
  /** Its list of updates could not be read: any update may be its own. */
  linksFailed: boolean;
}

/** A resource as the grid needs it: its state, and the section it sits in. */
interface ReadResource {
  id: string;
  path: string;
  name: string;
  /** The state as served; undefined when it could not be read or is not given. */
  status: string | undefined;
  section: string | null;
}

interface IndexContents {
  reports: ReadReport[];
  updates: ReadUpdate[];
  broken: BrokenUpdate[];
  names: Map<string, string>;
  /** Resources whose name could not be read; "all" when one of them could not even be identified. */
  unnamed: Set<string> | "all";
  resources: ReadResource[];
  /** Section names by id; null for a section whose name could not be read. */
  sections: Map<string, string | null>;
  /** A section entry could not even be identified: no resource's section can be trusted. */
  sectionsBlind: boolean;
}

function readReport(reader: SnapshotReader, raw: unknown, path: string, into: IndexContents): void {
  const entry = reader.fields(reportEntryShape, raw, path);
  if (entry?.values.id === undefined) {
    reader.unreadIncident(null, path);
    return;
  }
  const id = entry.values.id;
  const read = reader.fields(reportShape, entry.values.attributes, joinPath(path, "attributes"));
  if (!read) {
    reader.unreadIncident(id, path);
    return;
  }
  const links = entry.values.relationships?.status_updates?.data;
  const listed = new Set((links ?? []).map((d) => d.id));
  into.reports.push({ id, path, values: read.values, failed: read.failed, listed, listsUpdates: links !== undefined && links !== null, linksFailed: entry.failed.has("relationships") });
}

/** The report an update names: its status_report_id, else its relationship; undefined when that cannot be read. */
function namedReport(entry: ReadObject<typeof updateEntryShape> | null, read: ReadObject<typeof updateShape> | null): string | null | undefined {
  if (!read || read.failed.has("status_report_id")) return undefined;
  if (read.values.status_report_id) return read.values.status_report_id;
  if (!entry || entry.failed.has("relationships")) return undefined;
  return entry.values.relationships?.status_report?.data?.id ?? null;
}

function readUpdate(reader: SnapshotReader, raw: unknown, path: string, into: IndexContents): void {
  const entry = reader.fields(updateEntryShape, raw, path);
  const read = entry ? reader.fields(updateShape, entry.values.attributes, joinPath(path, "attributes")) : null;
  const id = entry?.values.id ?? null;
  const report = namedReport(entry, read);
  const published = read?.values.published_at;
  if (id === null || !read || read.failed.size > 0 || report === undefined || published === undefined) {
    into.broken.push({ id, report: report ?? null, placed: report !== undefined });
    return;
  }
  into.updates.push({ id, published, message: read.values.message ?? "", affected: read.values.affected_resources ?? [], report });
}

function readResource(reader: SnapshotReader, raw: unknown, path: string, into: IndexContents): void {
  const entry = reader.fields(resourceEntryShape, raw, path);
  const id = entry?.values.id;
  const read = entry ? reader.fields(resourceShape, entry.values.attributes, joinPath(path, "attributes")) : null;
  if (id !== undefined && read && !read.failed.has("public_name")) {
    const name = read.values.public_name ?? id;
    into.names.set(id, name);
    const status = read.failed.has("status") || read.failed.has("status_page_section_id") ? undefined : (read.values.status ?? undefined);
    into.resources.push({ id, path, name, status, section: read.values.status_page_section_id ?? null });
    return;
  }
  if (id !== undefined) into.resources.push({ id, path, name: id, status: undefined, section: null });
  if (id === undefined || into.unnamed === "all") into.unnamed = "all";
  else into.unnamed.add(id);
}

function readSection(reader: SnapshotReader, raw: unknown, path: string, into: IndexContents): void {
  const entry = reader.fields(resourceEntryShape, raw, path);
  const id = entry?.values.id;
  if (id === undefined) {
    into.sectionsBlind = true;
    return;
  }
  const read = reader.fields(sectionShape, entry?.values.attributes, joinPath(path, "attributes"));
  into.sections.set(id, read && !read.failed.has("name") ? (read.values.name ?? "") : null);
}

/**
 * The page's resources as its component grid, each in its section, which is a group known by its
 * name only (Better Stack states no state of a section's own). A resource whose state or section
 * cannot be read keeps the state it had.
 */
function readResourceGrid(reader: SnapshotReader, contents: IndexContents): ComponentGrid | undefined {
  const grid: ComponentGrid = { components: [], unreadIds: [], blind: contents.unnamed === "all" };
  addComponentItems(reader, grid, contents.resources, "included", BETTERSTACK_STATUS_WORDS, (item): ComponentRead => {
    const r = item as ReadResource;
    const section = r.section === null ? "" : contents.sections.get(r.section);
    const placed = section !== null && (section !== undefined || !contents.sectionsBlind);
    if (r.status === undefined || !placed) return { unreadId: r.id };
    return {
      component: { id: r.id, name: r.name, groupId: section || null, isGroup: false, vendorStatus: r.status, vendorChangedAt: null },
      statusPath: joinPath(r.path, "attributes", "status"),
    };
  });
  if (grid.components.length === 0 && grid.unreadIds.length === 0 && !grid.blind) return undefined;
  return grid;
}

/**
 * The report entries, updates and resources of `included`, each read on its own. An entry without a
 * type could be any of them: it may be a report, an update of any report and any resource.
 */
function readIncluded(reader: SnapshotReader, included: readonly unknown[]): IndexContents {
  const into: IndexContents = { reports: [], updates: [], broken: [], names: new Map(), unnamed: new Set(), resources: [], sections: new Map(), sectionsBlind: false };
  included.forEach((raw, i) => {
    const path = joinPath("included", i);
    const type = isRecord(raw) ? raw.type : undefined;
    if (type === "status_report") readReport(reader, raw, path, into);
    else if (type === "status_update") readUpdate(reader, raw, path, into);
    else if (type === "status_page_resource") readResource(reader, raw, path, into);
    else if (type === "status_page_section") readSection(reader, raw, path, into);
    else if (typeof type !== "string") {
      reader.unreadIncident(null, path, "entry has no type");
      into.broken.push({ id: null, report: null, placed: false });
      into.unnamed = "all";
      into.sectionsBlind = true;
    }
  });
  return into;
}

/** Whether an update of this report may be among those that could not be read. */
function missesUpdates(report: ReadReport, contents: IndexContents): boolean {
  if (report.linksFailed) return true;
  // A report that names its updates misses one only when a named one was not read.
  if (report.listsUpdates) {
    const read = new Set(contents.updates.map((u) => u.id));
    return [...report.listed].some((id) => !read.has(id));
  }
  // Without its id, any report may list it; without its report, it may be any report's.
  return contents.broken.some((b) => b.id === null || !b.placed || report.listed.has(b.id) || b.report === report.id);
}

function readReportObservation(report: ReadReport, contents: IndexContents, origin: string | null | undefined, ctx: ParseContext): Observation {
  const { values: a, failed } = report;
  const own = contents.updates.filter((u) => report.listed.has(u.id) || u.report === report.id);
  const updates: IncidentUpdate[] = [...own]
    .sort((x, y) => compareTimes(x.published, y.published))
    .map((u) => ({ id: u.id, status: worstState(u.affected.map((r) => r.status)), body: u.message, createdAt: u.published, displayAt: u.published }));
  const maintenance = a.report_type === "maintenance";
  const affected = [...(a.affected_resources ?? []), ...own.flatMap((u) => u.affected)];
  const components = new Map<string, Component>();
  for (const r of affected) components.set(r.status_page_resource_id, { id: r.status_page_resource_id, name: contents.names.get(r.status_page_resource_id) ?? r.status_page_resource_id });
  const { status, at: statusAt } = reportStatus(a, updates, ctx.observedAt);
  const worst = worstState([a.aggregate_state, ...affected.map((r) => r.status)]);
  const startsAt = a.starts_at ?? null;
  const incident: Incident = {
    vendor: ctx.vendor,
    id: report.id,
    kind: maintenance ? "maintenance" : "incident",
    title: a.title ?? "",
    status,
    impact: maintenance ? "maintenance" : worst === null ? null : (STATE_IMPACT[worst] ?? "none"),
    url: origin ? `${origin}/incident/${report.id}` : null,
    startedAt: startsAt ?? updates[0]?.createdAt ?? null,
    resolvedAt: status === "resolved" ? resolvedAtOf(updates) : null,
    scheduledFor: maintenance ? startsAt : null,
    scheduledUntil: maintenance ? (a.ends_at ?? null) : null,
    components: [...components.values()],
    updates,
    postmortem: null,
  };

  const unstated = new Set<StatedField>();
  const lose = (key: keyof typeof reportShape & string, ...fields: StatedField[]) => {
    if (failed.has(key)) for (const f of fields) unstated.add(f);
  };
  lose("title", "title");
  lose("report_type", "kind", "status", "impact", "resolvedAt", "scheduledFor", "scheduledUntil");
  lose("starts_at", "startedAt", ...(maintenance ? (["scheduledFor", "status"] as const) : []));
  if (maintenance) lose("ends_at", "scheduledUntil");
  lose("aggregate_state", "status", "impact", "resolvedAt");
  lose("affected_resources", "components", "impact");
  if (origin === undefined) unstated.add("url");
  const partialUpdates = missesUpdates(report, contents);
  if (partialUpdates) {
    // What is worked out from the updates needs them all.
    unstated.add("components");
    if (status === "resolved") unstated.add("resolvedAt");
    if (!maintenance) unstated.add("impact");
    if (!a.aggregate_state) unstated.add("status");
    if (startsAt === null) unstated.add("startedAt");
  }
  const unnamed = contents.unnamed;
  if (incident.components.some((c) => !contents.names.has(c.id) && (unnamed === "all" || unnamed.has(c.id)))) unstated.add("components");
  if (unstated.has("status")) unstated.add("resolvedAt");

  const statements: Partial<Record<StatedField, Statement>> = {};
  if (statusAt === "inferred") statements.status = "inferred";
  if (startsAt === null && updates.length > 0) statements.startedAt = "inferred";
  return {
    incident,
    path: report.path,
    unstated: [...unstated],
    statements: Object.keys(statements).length > 0 ? statements : undefined,
    partialUpdates,
  };
}

function parseBetterstackIndex(body: Uint8Array, ctx: ParseContext): ParsedSnapshot {
  const raw = parseWithSchema(pageSchema, decodeJson(body, ctx), ctx);
  const reader = new SnapshotReader(ctx);
  const origin = pageOrigin(reader, raw.data.attributes);
  const contents = readIncluded(reader, raw.included ?? []);
  const seen = new Set<string>();
  for (const report of contents.reports) {
    if (seen.has(report.id)) continue;
    seen.add(report.id);
    reader.observe(readReportObservation(report, contents, origin, ctx));
  }
  reader.grid = readResourceGrid(reader, contents);
  return reader.snapshot();
}

const TITLE_STATUS = /^\s*\[([^\]]+)\]\s*/;
const FEED_STATUSES = new Set(["investigating", "identified", "monitoring", "resolved", "degraded", "downtime", "maintenance", "scheduled", "in_progress", "completed"]);

function reshapeFeedReport(key: string, items: readonly ReadFeedItem[], vendor: string): Incident {
  const dated = items.map((read) => ({ item: read.item, at: feedItemTime(read) ?? null }));
  const oldestFirst = dated.sort((x, y) => compareTimes(x.at, y.at));
  const derived = deriveUpdateIds(oldestFirst.map(({ at }) => at ?? "undated"));
  const updates = oldestFirst.map(({ item, at }, i) => {
    const label = TITLE_STATUS.exec(item.title ?? "")?.[1]?.trim().toLowerCase().replace(/\s+/g, "_") ?? "";
    return { id: item.guid ?? derived[i] ?? key, status: FEED_STATUSES.has(label) ? label : null, body: htmlToText(item.html), createdAt: at, displayAt: at };
  });
  const latest = oldestFirst.at(-1)?.item;
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

/**
 * Update items grouped by the report they link to. An item linking to none belongs to a report
 * that cannot be named; one whose date cannot be read is left out, and its report then states
 * nothing that depends on which of its updates is the latest.
 */
async function parseBetterstackFeed(body: Uint8Array, ctx: ParseContext): Promise<ParsedSnapshot> {
  const reader = new SnapshotReader(ctx);
  const groups = new Map<string, ReadFeedItem[]>();
  for (const read of await readFeedItems(reader, body, ctx)) {
    const key = /\/incidents?\/([A-Za-z0-9_-]+)/.exec(read.item.link ?? "")?.[1];
    if (!key) {
      reader.warn(joinPath(read.path, "link"), "no …/incident/<id> link");
      reader.unreadIncident(null, read.path);
      continue;
    }
    groups.set(key, [...(groups.get(key) ?? []), read]);
  }
  for (const [key, group] of groups) {
    const path = group[0]?.path ?? "items";
    const readable = group.filter((read) => feedItemTime(read) !== undefined);
    if (readable.length === 0) {
      reader.unreadIncident(key, path);
      continue;
    }
    const partialUpdates = readable.length < group.length;
    const unstated: StatedField[] = partialUpdates ? ["title", "url", "status", "startedAt"] : [];
    reader.observe({ incident: reshapeFeedReport(key, readable, ctx.vendor), path, unstated, partialUpdates });
  }
  return reader.snapshot();
}

export const betterstackIndexPlatform: Platform = {
  name: "betterstack-index",
  description: "Better Stack status page /index.json: status reports with their updates and affected resources, and each resource's state",
  profile: PLATFORM_PROFILES["betterstack-index"],
  parserVersion: 2,
  async parse(body, ctx) {
    return parseBetterstackIndex(body, ctx);
  },
};

export const betterstackRssPlatform: Platform = {
  name: "betterstack-rss",
  description: "Better Stack status page /feed.rss: one item per status update, grouped by report",
  profile: PLATFORM_PROFILES["betterstack-rss"],
  parserVersion: 1,
  async parse(body, ctx) {
    return parseBetterstackFeed(body, ctx);
  },
};

export const betterstackPlatforms: Platform[] = [betterstackIndexPlatform, betterstackRssPlatform];
