/**
 * Google Cloud Service Health `incidents.json` (https://status.cloud.google.com/incidents.json).
 * Format: https://status.cloud.google.com/incidents.schema.json and
 * https://docs.cloud.google.com/service-health/docs/service-health-fallback. Before 2021 incidents
 * had no `id`, an integer `number` and a hyphenated `most-recent-update`, so each element is
 * checked against its own shape.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { exactProfile } from "@/lib/derive/source-profile";
import { z } from "zod";
import { type Component, type Impact, type Incident, type IncidentUpdate, keepFirstById, type Postmortem } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import {
  decodeJson,
  optionalUtcTimestampField,
  parseWithSchema,
  type ParseContext,
  type Platform,
  utcTimestampField,
} from "@/scrapers/platforms/platform";

const STATUS_PAGE = "https://status.cloud.google.com/";


const updateSchema = z.object({
  created: utcTimestampField,
  when: optionalUtcTimestampField,
  text: z.string(),
  status: z.string().nullish(),
});
type GcpUpdate = z.infer<typeof updateSchema>;

const commonFields = {
  begin: optionalUtcTimestampField,
  end: optionalUtcTimestampField,
  external_desc: z.string(),
  severity: z.string().nullish(),
  service_key: z.string().nullish(),
  service_name: z.string().nullish(),
  updates: z.array(updateSchema),
  uri: z.string().nullish(),
};

const currentIncidentSchema = z.object({
  ...commonFields,
  id: z.string().min(1),
  most_recent_update: updateSchema.nullish(),
  affected_products: z.array(z.object({ id: z.string().min(1), title: z.string() })).nullish(),
});

const legacyIncidentSchema = z.object({
  ...commonFields,
  number: z.number().int(),
  service_key: z.string().min(1),
  service_name: z.string(),
  "most-recent-update": updateSchema.nullish(),
});

type CurrentIncident = z.infer<typeof currentIncidentSchema>;
type LegacyIncident = z.infer<typeof legacyIncidentSchema>;

function isLegacyShape(value: unknown): boolean {
  return typeof value === "object" && value !== null && !("id" in value) && typeof (value as { number?: unknown }).number === "number";
}

// A union would report "invalid input" at the element; choosing the shape first names the failing field.
const incidentElementSchema = z.unknown().transform((value, ctx): CurrentIncident | LegacyIncident => {
  const result = isLegacyShape(value) ? legacyIncidentSchema.safeParse(value) : currentIncidentSchema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

export const gcpIncidentsSchema = z.array(incidentElementSchema);

const SEVERITY_IMPACT = new Map<string, Impact>([
  ["low", "minor"],
  ["medium", "major"],
  ["high", "critical"],
]);

// GCP heads its reports "# Incident Report", "## \# Mini Incident Report", "## **Incident Report**", …
const REPORT_HEADING = /^#{1,6}[ \t]*(?:\\?#[ \t]*)*(?:\*\*|__)?[ \t]*(?:(?:mini|preliminary|full)[ \t]+)?incident[ \t]+report\b/i;

export function isIncidentReport(text: string): boolean {
  const firstLine = text.trimStart().split("\n", 1)[0] ?? "";
  return REPORT_HEADING.test(firstLine);
}

function byCreated(a: GcpUpdate, b: GcpUpdate): number {
  return a.created < b.created ? -1 : a.created > b.created ? 1 : 0;
}

export function reshapeGcpUpdates(updates: readonly GcpUpdate[]): IncidentUpdate[] {
  const oldestFirst = [...updates].sort(byCreated);
  const ids = deriveUpdateIds(oldestFirst.map((u) => u.created));
  return oldestFirst.map((u, i) => ({
    id: ids[i] ?? u.created,
    status: u.status ? u.status.toLowerCase() : null,
    body: u.text,
    createdAt: u.created,
    displayAt: u.when,
  }));
}

function findPostmortem(oldestFirst: readonly GcpUpdate[]): Postmortem | null {
  const report = oldestFirst.findLast((u) => isIncidentReport(u.text));
  return report ? { body: report.text, publishedAt: report.when } : null;
}

function reshapeStatus(raw: CurrentIncident | LegacyIncident, oldestFirst: readonly GcpUpdate[]): string {
  if (raw.end !== null) return "resolved";
  const latest = ("id" in raw ? raw.most_recent_update : raw["most-recent-update"]) ?? oldestFirst.at(-1);
  return latest?.status ? latest.status.toLowerCase() : "ongoing";
}

function reshapeComponents(raw: CurrentIncident | LegacyIncident): Component[] {
  if ("id" in raw) return (raw.affected_products ?? []).map((p) => ({ id: p.id, name: p.title }));
  return [{ id: raw.service_key, name: raw.service_name }];
}

export function reshapeGcpIncident(raw: CurrentIncident | LegacyIncident, vendor: string): Incident {
  const oldestFirst = [...raw.updates].sort(byCreated);
  return {
    vendor,
    id: "id" in raw ? raw.id : `${raw.service_key}/${raw.number}`,
    kind: "incident",
    title: raw.external_desc,
    status: reshapeStatus(raw, oldestFirst),
    impact: SEVERITY_IMPACT.get(raw.severity?.toLowerCase() ?? "") ?? null,
    url: raw.uri ? STATUS_PAGE + raw.uri.replace(/^\/+/, "") : null,
    startedAt: raw.begin,
    resolvedAt: raw.end,
    scheduledFor: null,
    scheduledUntil: null,
    components: reshapeComponents(raw),
    updates: reshapeGcpUpdates(oldestFirst),
    postmortem: findPostmortem(oldestFirst),
  };
}

export function parseGcpIncidents(body: Uint8Array, context: ParseContext): Incident[] {
  const raw = parseWithSchema(gcpIncidentsSchema, decodeJson(body, context), context);
  return keepFirstById(raw.map((element) => reshapeGcpIncident(element, context.vendor)));
}

export const gcpPlatform: Platform = {
  name: "gcp",
  description: "Google Cloud status incidents.json (current and pre-2021 incident shapes)",
  // The feed keeps about a year of incidents by their end time, not a fixed count.
  profile: exactProfile({ kind: "recent", limit: null, by: "end" }),
  parserVersion: 1,
  async parse(body, context) {
    return wholeSnapshot(parseGcpIncidents(body, context));
  },
};
