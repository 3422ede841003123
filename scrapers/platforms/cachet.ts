/**
 * Cachet, the self-hosted status page.
 * - 2.x, API v1 `GET /api/v1/incidents` (https://github.com/cachethq/docs/tree/2.x, statuses
 *   https://github.com/cachethq/docs/blob/3.x/src/incident-statuses.md): `{meta: {pagination}, data: [...]}`,
 *   numeric status 0 scheduled … 4 fixed, one `message`, and from 2.4 an `updates` array.
 * - 3.x `GET /api/incidents?include=components,updates` (https://github.com/cachethq/docs/blob/3.x/src/api/introduction.md,
 *   api-reference/openapi.json): JSON:API-ish `data[].attributes` with `{human, value}` statuses and
 *   `{human, string}` times, updates and components under `included`.
 * Times are "YYYY-MM-DD HH:MM:SS" without a zone. They are read as UTC: Cachet stores UTC and the 3.x
 * API documents UTC unless a Time-Zone header is sent (https://github.com/cachethq/docs/blob/3.x/src/api/timezone-header.md).
 * Cachet states no impact and no postmortem; a scheduled incident (status 0) is a maintenance.
 */
import type { Observation } from "@/lib/derive/observation";
import type { StatedField, Statement } from "@/lib/derive/source-profile";
import { z } from "zod";
import type { Component, Incident, IncidentUpdate } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { TimestampError, toUtcIso } from "@/lib/time";
import { deriveUpdateIds } from "@/lib/update-identity";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import { isRecord, joinPath, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const STATUS_NAMES = ["scheduled", "investigating", "identified", "watching", "fixed"];

const cachetTimeField = z.string().transform((value, ctx) => {
  try {
    return toUtcIso(value, { assumeOffsetMinutes: 0 });
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message });
    return z.NEVER;
  }
});
export const optionalCachetTime = cachetTimeField.nullish().transform((value) => value ?? null);
export const idField = z.union([z.string().min(1), z.number().int()]).transform(String);
export const statusField = z.union([z.number().int(), z.string().trim().regex(/^\d+$/, "expected a status number")]).transform(Number);

function statusName(code: number | null | undefined): string | null {
  return code === null || code === undefined ? null : (STATUS_NAMES[code] ?? null);
}

function byTime(a: IncidentUpdate, b: IncidentUpdate): number {
  const x = a.createdAt ?? "";
  const y = b.createdAt ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}

/** When the closing run of "fixed" updates began. */
function fixedSince(updates: readonly IncidentUpdate[]): string | null {
  let at: string | null = null;
  for (const u of [...updates].sort(byTime)) at = u.status === "fixed" ? (at ?? u.createdAt) : null;
  return at;
}

type CachetField = "name" | "status" | "message" | "occurredAt" | "scheduledAt" | "createdAt" | "url" | "components" | "updates";

/** The fields whose raw values could not be read. */
function failedFields(failed: ReadonlySet<string>, names: Readonly<Record<string, CachetField>>, ...more: Array<CachetField | false>): Set<CachetField> {
  const out = new Set<CachetField>();
  for (const [raw, field] of Object.entries(names)) if (failed.has(raw)) out.add(field);
  for (const field of more) if (field !== false) out.add(field);
  return out;
}

/** What both API versions say of an incident; a value its response held but that could not be read is in `failed`. */
interface CachetFields {
  id: string;
  path: string;
  name: string;
  status: number | null;
  message: string | null;
  occurredAt: string | null;
  scheduledAt: string | null;
  createdAt: string | null;
  /** The incident's page, and whether it is only built from the API's own address. */
  url: { href: string | null; built: boolean };
  components: Component[];
  updates: IncidentUpdate[];
  failed: ReadonlySet<CachetField>;
  /** Some updates could not be read (or may be among those that could not be read). */
  skippedUpdates: boolean;
}

/** The start: when it occurred, else (for an incident) when it was scheduled, else when it was created; undefined when unknown. */
function startOf(raw: CachetFields, maintenance: boolean): string | null | undefined {
  const { failed } = raw;
  if (failed.has("occurredAt")) return undefined;
  if (raw.occurredAt !== null) return raw.occurredAt;
  // Without the status, whether the schedule counts is not known.
  if (failed.has("scheduledAt") || (failed.has("status") && raw.scheduledAt !== null)) return undefined;
  if (!maintenance && raw.scheduledAt !== null) return raw.scheduledAt;
  return failed.has("createdAt") ? undefined : raw.createdAt;
}

/**
 * The incident's own message is its first update; its id comes from its time, never its text. A
 * value that could not be read is not stated, nor what is worked out from it.
 */
function observeCachet(raw: CachetFields, vendor: string): Observation {
  const { failed } = raw;
  const maintenance = raw.status === 0;
  const start = startOf(raw, maintenance);
  const startedAt = start ?? null;
  const message = (raw.message ?? "").trim();
  const [messageId = "~undated"] = deriveUpdateIds([raw.createdAt ?? startedAt ?? "undated"]);
  const openingRead = !failed.has("message") && !failed.has("createdAt") && start !== undefined;
  const opening: IncidentUpdate[] =
    message === "" || !openingRead ? [] : [{ id: messageId, status: null, body: message, createdAt: raw.createdAt, displayAt: startedAt ?? raw.createdAt }];
  const updates = [...opening, ...[...raw.updates].sort(byTime)];
  const status = statusName(raw.status);
  const incident: Incident = {
    vendor,
    id: raw.id,
    kind: maintenance ? "maintenance" : "incident",
    title: raw.name,
    status,
    impact: maintenance ? "maintenance" : null,
    url: raw.url.href,
    startedAt,
    resolvedAt: status === "fixed" ? fixedSince(raw.updates) : null,
    scheduledFor: maintenance ? raw.scheduledAt : null,
    scheduledUntil: null,
    components: raw.components,
    updates,
    postmortem: null,
  };
  const unstated = new Set<StatedField | "updates">();
  if (failed.has("name")) unstated.add("title");
  if (failed.has("status")) for (const f of ["status", "kind", "impact", "resolvedAt", "scheduledFor"] as const) unstated.add(f);
  if (failed.has("scheduledAt") && maintenance) unstated.add("scheduledFor");
  if (start === undefined) unstated.add("startedAt");
  if (failed.has("url")) unstated.add("url");
  if (failed.has("components")) unstated.add("components");
  if (failed.has("updates")) unstated.add("updates");
  if ((failed.has("updates") || raw.skippedUpdates) && status === "fixed") unstated.add("resolvedAt");
  const openingSkipped = !openingRead && (failed.has("message") || message !== "");
  const statements: Partial<Record<StatedField, Statement>> | undefined = raw.url.built && raw.url.href !== null ? { url: "inferred" } : undefined;
  return { incident, path: raw.path, unstated: [...unstated], statements, partialUpdates: raw.skippedUpdates || openingSkipped };
}

/** <origin>/incidents/<id> when the snapshot came from the page's own API. */
function pageIncidentUrl(source: string, id: string): string | null {
  try {
    const url = new URL(source);
    return /^https?:$/.test(url.protocol) ? new URL(`/incidents/${encodeURIComponent(id)}`, url.origin).toString() : null;
  } catch {
    return null;
  }
}

const v2UpdateSchema = z.object({
  id: idField,
  status: statusField.nullish(),
  message: z.string().nullish(),
  created_at: cachetTimeField,
  permalink: z.string().nullish(),
});

const v2IncidentShape = {
  id: idField,
  component_id: z.union([z.number().int(), z.string()]).nullish(),
  name: z.string(),
  status: statusField,
  message: z.string().nullish(),
  scheduled_at: optionalCachetTime,
  occurred_at: optionalCachetTime,
  created_at: optionalCachetTime,
  permalink: z.string().nullish(),
  updates: z.unknown(),
};

/** An element of /incidents/<id>/updates, which shares the list's shape: that list is no incident list. */
function isUpdateElement(value: unknown): boolean {
  return isRecord(value) && "incident_id" in value && !("name" in value);
}

const v2Schema = z.object({
  data: z.array(z.unknown()).refine((list) => list.length === 0 || !list.every(isUpdateElement), "a list of incident updates, not of incidents"),
});

const V2_FIELDS: Record<string, CachetField> = {
  name: "name", status: "status", message: "message", occurred_at: "occurredAt", scheduled_at: "scheduledAt", created_at: "createdAt",
  permalink: "url", component_id: "components",
};

function readV2Incident(reader: SnapshotReader, rawIncident: unknown, path: string, ctx: ParseContext): CachetFields | null {
  const read = reader.fields(v2IncidentShape, rawIncident, path);
  const id = read?.values.id;
  if (!read || id === undefined) {
    reader.unreadIncident(null, path);
    return null;
  }
  const { values: v, failed } = read;
  const list = reader.items(v2UpdateSchema, v.updates, joinPath(path, "updates"));
  const updates = list?.items ?? [];
  const skippedUpdates = (list?.skipped ?? 0) > 0;
  const componentId = v.component_id === null || v.component_id === undefined ? "" : String(v.component_id);
  const permalink = v.permalink ?? null;
  const linked = updates.find((u) => u.permalink)?.permalink?.replace(/#.*$/, "") ?? null;
  const built = permalink === null && linked === null;
  // The first update's permalink stands in for the incident's own: a skipped update may have been that one.
  const urlFailed = failed.has("permalink") || (permalink === null && (list === null || skippedUpdates));
  return {
    id,
    path,
    name: v.name ?? "",
    status: v.status ?? null,
    message: v.message ?? null,
    occurredAt: v.occurred_at ?? null,
    scheduledAt: v.scheduled_at ?? null,
    createdAt: v.created_at ?? null,
    url: { href: permalink ?? linked ?? pageIncidentUrl(ctx.source, id), built },
    // The v1 API gives a component's id only; 0 means none.
    components: componentId === "" || componentId === "0" ? [] : [{ id: componentId, name: componentId }],
    updates: updates.map((u) => ({ id: u.id, status: statusName(u.status), body: u.message ?? "", createdAt: u.created_at, displayAt: u.created_at })),
    failed: failedFields(failed, V2_FIELDS, urlFailed && "url", list === null && "updates"),
    skippedUpdates,
  };
}

const humanTimeSchema = z.object({ string: optionalCachetTime }).nullish();
const humanStatusSchema = z.object({ human: z.string().nullish(), value: statusField });
const linksSchema = z.object({ data: z.array(z.object({ id: idField })).nullish() }).nullish();

const v3IncidentShape = { id: idField, attributes: z.unknown(), relationships: z.unknown() };
const v3AttributesShape = {
  name: z.string(),
  message: z.string().nullish(),
  status: humanStatusSchema,
  occurred: humanTimeSchema,
  created: humanTimeSchema,
};
const v3RelationshipsShape = { components: linksSchema, updates: linksSchema };
const V3_FIELDS: Record<string, CachetField> = { name: "name", message: "message", status: "status", occurred: "occurredAt", created: "createdAt" };

const v3IncludedShape = { id: idField, type: z.string() };
const v3UpdateShape = { status: humanStatusSchema.nullish(), message: z.string().nullish(), created: humanTimeSchema, updateable_id: idField.nullish() };
const v3ComponentShape = { name: z.string().nullish() };

const v3Schema = z.object({ data: z.array(z.unknown()), included: z.unknown().optional() });

/** An included update that could not be read, with what is known of whose it is. */
interface BrokenUpdate {
  id: string | null;
  /** Its updateable_id: null for none, undefined when that could not be read. */
  owner: string | null | undefined;
}

interface V3Included {
  updates: Array<{ id: string; owner: string | null; update: Omit<IncidentUpdate, "id"> }>;
  broken: BrokenUpdate[];
  names: Map<string, string>;
  /** Components whose name could not be read; "all" when one could not even be identified. */
  unnamed: Set<string> | "all";
}

/** The included updates and components, each read on its own; an entry of another type is not read. */
function readV3Included(reader: SnapshotReader, raw: unknown): V3Included {
  const out: V3Included = { updates: [], broken: [], names: new Map(), unnamed: new Set() };
  const list = reader.items(z.unknown(), raw, "included");
  if (list === null) {
    out.broken.push({ id: null, owner: undefined });
    out.unnamed = "all";
  }
  (list?.items ?? []).forEach((entry, i) => {
    const path = joinPath("included", i);
    const head = reader.fields(v3IncludedShape, entry, path);
    const id = head?.values.id ?? null;
    const type = head?.values.type;
    if (type !== undefined && type !== "updates" && type !== "components") return;
    const attributes = isRecord(entry) ? entry.attributes : undefined;
    if (type === "components" && id !== null) {
      const read = reader.fields(v3ComponentShape, attributes, joinPath(path, "attributes"));
      if (read && !read.failed.has("name")) out.names.set(id, read.values.name ?? id);
      else if (out.unnamed !== "all") out.unnamed.add(id);
      return;
    }
    if (type === "updates") {
      const read = reader.fields(v3UpdateShape, attributes, joinPath(path, "attributes"));
      const owner = read && !read.failed.has("updateable_id") ? (read.values.updateable_id ?? null) : undefined;
      if (id !== null && read && owner !== undefined && read.failed.size === 0) {
        const at = read.values.created?.string ?? null;
        out.updates.push({ id, owner, update: { status: statusName(read.values.status?.value), body: read.values.message ?? "", createdAt: at, displayAt: at } });
        return;
      }
      out.broken.push({ id, owner });
      return;
    }
    // Without its id or type, it may be any incident's update or any component.
    out.broken.push({ id, owner: undefined });
    out.unnamed = "all";
  });
  return out;
}

function readV3Incident(reader: SnapshotReader, rawIncident: unknown, path: string, included: V3Included, ctx: ParseContext): CachetFields | null {
  const head = reader.fields(v3IncidentShape, rawIncident, path);
  const id = head?.values.id;
  if (!head || id === undefined) {
    reader.unreadIncident(null, path);
    return null;
  }
  const read = reader.fields(v3AttributesShape, head.values.attributes, joinPath(path, "attributes"));
  if (!read) {
    reader.unreadIncident(id, path);
    return null;
  }
  const rawLinks = head.values.relationships;
  const links = rawLinks === undefined || rawLinks === null ? null : reader.fields(v3RelationshipsShape, rawLinks, joinPath(path, "relationships"));
  const linksUnread = (key: "components" | "updates") => rawLinks !== undefined && rawLinks !== null && (links === null || links.failed.has(key));
  const updateIds = new Set((links?.values.updates?.data ?? []).map((d) => d.id));
  const componentIds = (links?.values.components?.data ?? []).map((d) => d.id);
  const own = included.updates.filter((u) => updateIds.has(u.id) || u.owner === id);
  // Without its id, any incident may list it; without its updateable_id, it may be any incident's.
  const missed = linksUnread("updates") || included.broken.some((b) => b.id === null || b.owner === undefined || updateIds.has(b.id) || b.owner === id);
  const unnamed = included.unnamed;
  const componentsUnread = linksUnread("components") || componentIds.some((c) => unnamed === "all" || unnamed.has(c));
  const { values: a, failed } = read;
  return {
    id,
    path,
    name: a.name ?? "",
    status: a.status?.value ?? null,
    message: a.message ?? null,
    occurredAt: a.occurred?.string ?? null,
    scheduledAt: null,
    createdAt: a.created?.string ?? null,
    url: { href: pageIncidentUrl(ctx.source, id), built: true },
    components: componentIds.map((c) => ({ id: c, name: included.names.get(c) ?? c })),
    updates: own.map((u) => ({ id: u.id, ...u.update })),
    failed: failedFields(failed, V3_FIELDS, componentsUnread && "components"),
    skippedUpdates: missed,
  };
}

/** Each incident of `data` read on its own; of several with one id the first is kept. */
function observeAll(reader: SnapshotReader, list: readonly unknown[], read: (raw: unknown, path: string) => CachetFields | null): void {
  const seen = new Set<string>();
  list.forEach((raw, i) => {
    const fields = read(raw, joinPath("data", i));
    if (fields === null || seen.has(fields.id)) return;
    seen.add(fields.id);
    reader.observe(observeCachet(fields, reader.context.vendor));
  });
}

export const cachetV2Platform: Platform = {
  name: "cachet-v2",
  description: "Cachet 2.x API v1 /api/v1/incidents: incidents with their message and (2.4) updates",
  profile: PLATFORM_PROFILES["cachet-v2"],
  parserVersion: 1,
  async parse(body, ctx) {
    const raw = parseWithSchema(v2Schema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    observeAll(reader, raw.data, (incident, path) => readV2Incident(reader, incident, path, ctx));
    return reader.snapshot();
  },
};

export const cachetV3Platform: Platform = {
  name: "cachet-v3",
  description: "Cachet 3.x /api/incidents (JSON:API): incidents with included updates and components",
  profile: PLATFORM_PROFILES["cachet-v3"],
  parserVersion: 1,
  async parse(body, ctx) {
    const raw = parseWithSchema(v3Schema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    const included = readV3Included(reader, raw.included);
    observeAll(reader, raw.data, (incident, path) => readV3Incident(reader, incident, path, included, ctx));
    return reader.snapshot();
  },
};
