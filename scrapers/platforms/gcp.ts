/**
 * Google Cloud Service Health `incidents.json` (https://status.cloud.google.com/incidents.json).
 * Format: https://status.cloud.google.com/incidents.schema.json and
 * https://docs.cloud.google.com/service-health/docs/service-health-fallback. Before 2021 incidents
 * had no `id`, an integer `number` and a hyphenated `most-recent-update`. Each incident is read
 * field by field: a malformed field, product or update costs only itself.
 */
import { z } from "zod";
import type { StatedField } from "@/lib/derive/source-profile";
import { type Component, type Impact, type Incident, type IncidentUpdate, type Postmortem } from "@/lib/incident";
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
import { joinPath, type ReadFields, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const STATUS_PAGE = "https://status.cloud.google.com/";

const updateSchema = z.object({
  created: utcTimestampField,
  when: optionalUtcTimestampField,
  text: z.string(),
  status: z.string().nullish(),
});
type GcpUpdate = z.infer<typeof updateSchema>;

/** Only its status is used: the incident's status while it is open. */
const latestUpdateSchema = z.object({ status: z.string().nullish() }).nullish();

const productSchema = z.object({ id: z.string().min(1), title: z.string() });

const SEVERITY_IMPACT = new Map<string, Impact>([
  ["low", "minor"],
  ["medium", "major"],
  ["high", "critical"],
]);

// An unknown severity is a new vendor value, not "no impact": it states nothing.
const severitySchema = z.string().nullish().transform((value, ctx): Impact | null => {
  if (value === null || value === undefined || value.trim() === "") return null;
  const impact = SEVERITY_IMPACT.get(value.toLowerCase());
  if (impact !== undefined) return impact;
  ctx.addIssue({ code: "custom", message: `unknown severity ${JSON.stringify(value.slice(0, 40))}` });
  return z.NEVER;
});

const commonShape = {
  begin: optionalUtcTimestampField,
  end: optionalUtcTimestampField,
  external_desc: z.string(),
  severity: severitySchema,
  updates: z.array(z.unknown()),
  uri: z.string().nullish(),
};

const currentShape = {
  ...commonShape,
  id: z.string().min(1),
  most_recent_update: latestUpdateSchema,
  affected_products: z.unknown(),
};

const legacyShape = {
  ...commonShape,
  number: z.number().int(),
  service_key: z.string().min(1),
  service_name: z.string(),
  "most-recent-update": latestUpdateSchema,
};

/** What the two shapes say differently, read: the id, the components (null: unreadable) and the latest update. */
interface GcpListing {
  id: string;
  common: { values: ReadFields<typeof commonShape>; failed: ReadonlySet<string> };
  components: Component[] | null;
  latest: z.output<typeof latestUpdateSchema> | undefined;
  latestFailed: boolean;
}

function isLegacyShape(value: unknown): boolean {
  return typeof value === "object" && value !== null && !("id" in value) && typeof (value as { number?: unknown }).number === "number";
}

function readCurrentListing(reader: SnapshotReader, raw: unknown, path: string): GcpListing | null {
  const read = reader.fields(currentShape, raw, path);
  const id = read?.values.id;
  if (!read || id === undefined) return null;
  const products = reader.items(productSchema, read.values.affected_products, joinPath(path, "affected_products"));
  return {
    id,
    common: read,
    components: products === null || products.skipped > 0 ? null : products.items.map((p) => ({ id: p.id, name: p.title })),
    latest: read.values.most_recent_update,
    latestFailed: read.failed.has("most_recent_update"),
  };
}

function readLegacyListing(reader: SnapshotReader, raw: unknown, path: string): GcpListing | null {
  const read = reader.fields(legacyShape, raw, path);
  const key = read?.values.service_key;
  const number = read?.values.number;
  if (!read || key === undefined || number === undefined) return null;
  const name = read.values.service_name;
  return {
    id: `${key}/${number}`,
    common: read,
    components: name === undefined ? null : [{ id: key, name }],
    latest: read.values["most-recent-update"],
    latestFailed: read.failed.has("most-recent-update"),
  };
}

// GCP heads its reports "# Incident Report", "## \# Mini Incident Report", "## **Incident Report**", …
const REPORT_HEADING = /^#{1,6}[ \t]*(?:\\?#[ \t]*)*(?:\*\*|__)?[ \t]*(?:(?:mini|preliminary|full)[ \t]+)?incident[ \t]+report\b/i;

export function isIncidentReport(text: string): boolean {
  const firstLine = text.trimStart().split("\n", 1)[0] ?? "";
  return REPORT_HEADING.test(firstLine);
}

function byCreated(a: GcpUpdate, b: GcpUpdate): number {
  return a.created < b.created ? -1 : a.created > b.created ? 1 : 0;
}

function reshapeGcpUpdates(oldestFirst: readonly GcpUpdate[]): IncidentUpdate[] {
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

/**
 * One incident of either shape as an observation. A field that cannot be read is not stated, and
 * neither is what is worked out from it: the status of an open incident comes from its latest
 * update, the postmortem from the whole list of updates.
 */
function readGcpIncident(reader: SnapshotReader, raw: unknown, path: string, listed: Set<string>, ctx: ParseContext): void {
  const listing = isLegacyShape(raw) ? readLegacyListing(reader, raw, path) : readCurrentListing(reader, raw, path);
  if (listing === null) {
    // The reader has already said what was wrong at this path.
    reader.unreadIncident(null, path);
    return;
  }
  const { id, components, latest, latestFailed } = listing;
  if (listed.has(id)) return;
  listed.add(id);
  const { values: v, failed } = listing.common;
  const unstated = new Set<StatedField | "updates">();
  const lose = (key: keyof typeof commonShape, ...fields: StatedField[]) => {
    if (failed.has(key)) for (const f of fields) unstated.add(f);
  };
  lose("external_desc", "title");
  lose("severity", "impact");
  lose("uri", "url");
  lose("begin", "startedAt");
  lose("end", "resolvedAt", "status");
  if (components === null) unstated.add("components");

  const updates = failed.has("updates") ? null : reader.items(updateSchema, v.updates, joinPath(path, "updates"));
  const everyUpdate = updates !== null && updates.skipped === 0;
  if (updates === null) unstated.add("updates");
  if (!everyUpdate) unstated.add("postmortem");
  const end = v.end ?? null;
  // Open, the status is the latest update's: the `most_recent_update`, or else the newest listed.
  if (end === null && (latestFailed || ((latest ?? null) === null && !everyUpdate))) unstated.add("status");

  const oldestFirst = [...(updates?.items ?? [])].sort(byCreated);
  const newest = latest ?? oldestFirst.at(-1);
  const incident: Incident = {
    vendor: ctx.vendor,
    id,
    kind: "incident",
    title: v.external_desc ?? "",
    status: end !== null ? "resolved" : newest?.status ? newest.status.toLowerCase() : "ongoing",
    impact: v.severity ?? null,
    url: v.uri ? STATUS_PAGE + v.uri.replace(/^\/+/, "") : null,
    startedAt: v.begin ?? null,
    resolvedAt: end,
    scheduledFor: null,
    scheduledUntil: null,
    components: components ?? [],
    updates: reshapeGcpUpdates(oldestFirst),
    postmortem: findPostmortem(oldestFirst),
  };
  reader.observe({ incident, path, unstated: [...unstated], partialUpdates: (updates?.skipped ?? 0) > 0 });
}

const incidentListSchema = z.array(z.unknown());

export const gcpPlatform: Platform = {
  name: "gcp",
  description: "Google Cloud status incidents.json (current and pre-2021 incident shapes)",
  profile: PLATFORM_PROFILES.gcp,
  parserVersion: 2,
  async parse(body, context) {
    const list = parseWithSchema(incidentListSchema, decodeJson(body, context), context);
    const reader = new SnapshotReader(context);
    // The first listing of an id wins.
    const listed = new Set<string>();
    list.forEach((raw, i) => readGcpIncident(reader, raw, joinPath("", i), listed, context));
    return reader.snapshot();
  },
};
