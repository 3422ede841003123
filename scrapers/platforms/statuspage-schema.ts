/**
 * Atlassian Statuspage v2 incident and scheduled-maintenance objects, as served by the public
 * API (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/), and their
 * mapping onto the normalized incident, read field by field: a malformed field, component or
 * update costs only itself.
 */
import { z } from "zod";
import type { StatedField } from "@/lib/derive/source-profile";
import { impactSchema, type Incident, type IncidentUpdate } from "@/lib/incident";
import { optionalUtcTimestampField, type ParseContext } from "@/scrapers/platforms/platform";
import { joinPath, type SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

export const statuspagePageSchema = z.object({
  id: z.string().nullish(),
  name: z.string().nullish(),
  url: z.string().nullish(),
});
export type StatuspagePage = z.infer<typeof statuspagePageSchema>;

const componentSchema = z.object({ id: z.string().min(1), name: z.string() });

const updateSchema = z.object({
  id: z.string().min(1),
  status: z.string().nullish(),
  body: z.string().nullish(),
  created_at: optionalUtcTimestampField,
  display_at: optionalUtcTimestampField,
});

const incidentShape = {
  id: z.string().min(1),
  name: z.string(),
  status: z.string().nullish(),
  impact: impactSchema.nullish(),
  shortlink: z.string().nullish(),
  created_at: optionalUtcTimestampField,
  started_at: optionalUtcTimestampField,
  resolved_at: optionalUtcTimestampField,
  scheduled_for: optionalUtcTimestampField,
  scheduled_until: optionalUtcTimestampField,
  postmortem_body: z.string().nullish(),
  postmortem_published_at: optionalUtcTimestampField,
  components: z.unknown(),
  incident_updates: z.unknown(),
};

/** The snapshot's page, if it can be read: incident links are built on its URL. */
export function readStatuspagePage(reader: SnapshotReader, raw: unknown): StatuspagePage | null {
  if (raw === undefined || raw === null) return null;
  const page = statuspagePageSchema.safeParse(raw);
  if (page.success) return page.data;
  reader.warn(joinPath("page", ...(page.error.issues[0]?.path ?? [])), page.error.issues[0]?.message ?? "unreadable");
  return null;
}

function incidentId(raw: unknown): string | null {
  const id = typeof raw === "object" && raw !== null ? (raw as { id?: unknown }).id : undefined;
  return typeof id === "string" && id !== "" ? id : null;
}

/**
 * One Statuspage incident or maintenance as an observation; timestamps are already UTC. A field
 * that cannot be read is not stated this time, and neither is what is worked out from it.
 */
export function readStatuspageIncident(reader: SnapshotReader, raw: unknown, path: string, page: StatuspagePage | null, ctx: ParseContext): void {
  const read = reader.fields(incidentShape, raw, path);
  const id = read?.values.id;
  if (!read || id === undefined) {
    // The reader has already said what was wrong at this path.
    reader.unreadIncident(read ? null : incidentId(raw), path);
    return;
  }
  const { values: v, failed } = read;
  const unstated = new Set<StatedField | "updates">();
  const lose = (key: keyof typeof incidentShape & string, ...fields: Array<StatedField | "updates">) => {
    if (failed.has(key)) for (const f of fields) unstated.add(f);
  };
  lose("name", "title");
  lose("status", "status");
  lose("impact", "impact");
  lose("started_at", "startedAt");
  if (v.started_at === null || v.started_at === undefined) lose("created_at", "startedAt");
  lose("resolved_at", "resolvedAt");
  lose("scheduled_for", "scheduledFor");
  lose("scheduled_until", "scheduledUntil");
  lose("postmortem_body", "postmortem");
  lose("postmortem_published_at", "postmortem");
  const impact = v.impact ?? null;
  const scheduledFor = v.scheduled_for ?? null;
  const maintenance = scheduledFor !== null || impact === "maintenance";
  // Without the schedule or the impact, whether it is a maintenance is not known.
  if (!maintenance && (failed.has("scheduled_for") || failed.has("impact"))) unstated.add("kind");

  const components = reader.items(componentSchema, v.components, joinPath(path, "components"));
  if (components === null || components.skipped > 0) unstated.add("components");
  const updates = reader.items(updateSchema, v.incident_updates, joinPath(path, "incident_updates"));
  if (updates === null) unstated.add("updates");

  const base = page?.url?.trim().replace(/\/+$/, "");
  const url = base ? `${base}/incidents/${id}` : (v.shortlink ?? null);
  if (!base && failed.has("shortlink")) unstated.add("url");
  const postmortemBody = v.postmortem_body ?? "";
  const incident: Incident = {
    vendor: ctx.vendor,
    id,
    kind: maintenance ? "maintenance" : "incident",
    title: v.name ?? "",
    status: v.status ?? null,
    impact,
    url,
    startedAt: v.started_at ?? v.created_at ?? null,
    resolvedAt: v.resolved_at ?? null,
    scheduledFor,
    scheduledUntil: v.scheduled_until ?? null,
    components: (components?.items ?? []).map((c) => ({ id: c.id, name: c.name })),
    updates: (updates?.items ?? []).map((u): IncidentUpdate => ({
      id: u.id,
      status: u.status ?? null,
      body: u.body ?? "",
      createdAt: u.created_at ?? null,
      displayAt: u.display_at ?? u.created_at ?? null,
    })),
    postmortem: postmortemBody.trim() === "" ? null : { body: postmortemBody, publishedAt: v.postmortem_published_at ?? null },
  };
  reader.observe({
    incident,
    path,
    unstated: [...unstated],
    // A webhook payload carries no page: its shortlink stands in for the incident's page URL.
    statements: base ? undefined : { url: "inferred" },
    partialUpdates: (updates?.skipped ?? 0) > 0,
  });
}

/** The incidents of one or more lists of a snapshot ("incidents", "scheduled_maintenances"). */
export function readStatuspageLists(
  reader: SnapshotReader,
  lists: ReadonlyArray<{ key: string; raw: unknown }>,
  page: StatuspagePage | null,
  ctx: ParseContext,
): void {
  for (const { key, raw } of lists) {
    if (raw === undefined || raw === null) continue;
    if (!Array.isArray(raw)) {
      reader.unreadIncident(null, key, `expected a list, got ${typeof raw}`);
      continue;
    }
    raw.forEach((item: unknown, i) => readStatuspageIncident(reader, item, joinPath(key, i), page, ctx));
  }
}
