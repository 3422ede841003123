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
import { wholeSnapshot } from "@/lib/derive/observation";
import { EXACT_UPDATES, statingOnly } from "@/lib/derive/source-profile";
import { z } from "zod";
import { type Component, type Incident, type IncidentUpdate, keepFirstById } from "@/lib/incident";
import { TimestampError, toUtcIso } from "@/lib/time";
import { deriveUpdateIds } from "@/lib/update-identity";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";

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
const optionalCachetTime = cachetTimeField.nullish().transform((value) => value ?? null);
const idField = z.union([z.string().min(1), z.number().int()]).transform(String);
const statusField = z.union([z.number().int(), z.string().trim().regex(/^\d+$/, "expected a status number")]).transform(Number);

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

interface CachetFields {
  id: string;
  name: string;
  status: number;
  message: string | null;
  occurredAt: string | null;
  scheduledAt: string | null;
  createdAt: string | null;
  url: string | null;
  components: Component[];
  updates: IncidentUpdate[];
}

/** The incident's own message is its first update; its id comes from its time, never its text. */
function reshapeCachet(raw: CachetFields, vendor: string): Incident {
  const maintenance = raw.status === 0;
  const startedAt = raw.occurredAt ?? (maintenance ? null : raw.scheduledAt) ?? raw.createdAt;
  const message = (raw.message ?? "").trim();
  const [messageId = "~undated"] = deriveUpdateIds([raw.createdAt ?? startedAt ?? "undated"]);
  const opening: IncidentUpdate[] =
    message === "" ? [] : [{ id: messageId, status: null, body: message, createdAt: raw.createdAt, displayAt: startedAt ?? raw.createdAt }];
  const updates = [...opening, ...[...raw.updates].sort(byTime)];
  const status = statusName(raw.status);
  return {
    vendor,
    id: raw.id,
    kind: maintenance ? "maintenance" : "incident",
    title: raw.name,
    status,
    impact: maintenance ? "maintenance" : null,
    url: raw.url,
    startedAt,
    resolvedAt: status === "fixed" ? fixedSince(raw.updates) : null,
    scheduledFor: maintenance ? raw.scheduledAt : null,
    scheduledUntil: null,
    components: raw.components,
    updates,
    postmortem: null,
  };
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

const v2IncidentSchema = z.object({
  id: idField,
  component_id: z.union([z.number().int(), z.string()]).nullish(),
  name: z.string(),
  status: statusField,
  message: z.string().nullish(),
  scheduled_at: optionalCachetTime,
  occurred_at: optionalCachetTime,
  created_at: optionalCachetTime,
  permalink: z.string().nullish(),
  updates: z.array(v2UpdateSchema).nullish(),
});
type V2Incident = z.infer<typeof v2IncidentSchema>;

export const cachetV2Schema = z.object({
  meta: z.object({ pagination: z.object({}).passthrough().nullish() }).nullish(),
  data: z.array(v2IncidentSchema),
});

function reshapeV2(raw: V2Incident, ctx: ParseContext): Incident {
  const updates = raw.updates ?? [];
  const componentId = raw.component_id === null || raw.component_id === undefined ? "" : String(raw.component_id);
  const linked = updates.find((u) => u.permalink)?.permalink?.replace(/#.*$/, "") ?? null;
  return reshapeCachet(
    {
      id: raw.id,
      name: raw.name,
      status: raw.status,
      message: raw.message ?? null,
      occurredAt: raw.occurred_at,
      scheduledAt: raw.scheduled_at,
      createdAt: raw.created_at,
      url: raw.permalink ?? linked ?? pageIncidentUrl(ctx.source, raw.id),
      // The v1 API gives a component's id only; 0 means none.
      components: componentId === "" || componentId === "0" ? [] : [{ id: componentId, name: componentId }],
      updates: updates.map((u) => ({ id: u.id, status: statusName(u.status), body: u.message ?? "", createdAt: u.created_at, displayAt: u.created_at })),
    },
    ctx.vendor,
  );
}

const humanTimeSchema = z.object({ string: optionalCachetTime }).nullish();
const humanStatusSchema = z.object({ human: z.string().nullish(), value: statusField });
const linksSchema = z.object({ data: z.array(z.object({ id: idField })).nullish() }).nullish();

const v3IncidentSchema = z.object({
  id: idField,
  attributes: z.object({
    name: z.string(),
    message: z.string().nullish(),
    status: humanStatusSchema,
    occurred: humanTimeSchema,
    created: humanTimeSchema,
  }),
  relationships: z.object({ components: linksSchema, updates: linksSchema }).nullish(),
});
type V3Incident = z.infer<typeof v3IncidentSchema>;

const v3IncludedSchema = z.object({
  id: idField,
  type: z.string(),
  attributes: z.object({
    name: z.string().nullish(),
    message: z.string().nullish(),
    status: humanStatusSchema.nullish(),
    created: humanTimeSchema,
    updateable_id: idField.nullish(),
  }),
});
type V3Included = z.infer<typeof v3IncludedSchema>;

export const cachetV3Schema = z.object({
  data: z.array(v3IncidentSchema),
  included: z.array(v3IncludedSchema).nullish(),
});

function reshapeV3(raw: V3Incident, included: readonly V3Included[], ctx: ParseContext): Incident {
  const a = raw.attributes;
  const updateIds = new Set((raw.relationships?.updates?.data ?? []).map((d) => d.id));
  const componentIds = (raw.relationships?.components?.data ?? []).map((d) => d.id);
  const updates = included.filter((e) => e.type === "updates" && (updateIds.has(e.id) || e.attributes.updateable_id === raw.id));
  const names = new Map(included.filter((e) => e.type === "components").map((e) => [e.id, e.attributes.name ?? e.id]));
  return reshapeCachet(
    {
      id: raw.id,
      name: a.name,
      status: a.status.value,
      message: a.message ?? null,
      occurredAt: a.occurred?.string ?? null,
      scheduledAt: null,
      createdAt: a.created?.string ?? null,
      url: pageIncidentUrl(ctx.source, raw.id),
      components: componentIds.map((id) => ({ id, name: names.get(id) ?? id })),
      updates: updates.map((u) => {
        const at = u.attributes.created?.string ?? null;
        return { id: u.id, status: statusName(u.attributes.status?.value), body: u.attributes.message ?? "", createdAt: at, displayAt: at };
      }),
    },
    ctx.vendor,
  );
}

/** Cachet states no impact. */
const PROFILE = statingOnly({ kind: "recent", limit: null }, ["kind", "title", "status", "url", "startedAt", "resolvedAt", "scheduledFor", "scheduledUntil", "components"], EXACT_UPDATES);

export const cachetV2Platform: Platform = {
  name: "cachet-v2",
  description: "Cachet 2.x API v1 /api/v1/incidents: incidents with their message and (2.4) updates",
  profile: PROFILE,
  parserVersion: 1,
  async parse(body, ctx) {
    const raw = parseWithSchema(cachetV2Schema, decodeJson(body, ctx), ctx);
    return wholeSnapshot(keepFirstById(raw.data.map((incident) => reshapeV2(incident, ctx))));
  },
};

export const cachetV3Platform: Platform = {
  name: "cachet-v3",
  description: "Cachet 3.x /api/incidents (JSON:API): incidents with included updates and components",
  profile: PROFILE,
  parserVersion: 1,
  async parse(body, ctx) {
    const raw = parseWithSchema(cachetV3Schema, decodeJson(body, ctx), ctx);
    return wholeSnapshot(keepFirstById(raw.data.map((incident) => reshapeV3(incident, raw.included ?? [], ctx))));
  },
};
