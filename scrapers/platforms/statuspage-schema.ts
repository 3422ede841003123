/**
 * Atlassian Statuspage v2 incident and scheduled-maintenance objects, as served by the public
 * API (https://developer.statuspage.io/, https://metastatuspage.com/api/v2/), and their
 * mapping onto the normalized incident.
 */
import { z } from "zod";
import { impactSchema, type Impact, type Incident, keepFirstById } from "@/lib/incident";
import { optionalUtcTimestampField, type ParseContext } from "@/scrapers/platforms/platform";

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

export const statuspageIncidentSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  status: z.string().nullish(),
  impact: z.string().nullish(),
  shortlink: z.string().nullish(),
  created_at: optionalUtcTimestampField,
  started_at: optionalUtcTimestampField,
  resolved_at: optionalUtcTimestampField,
  scheduled_for: optionalUtcTimestampField,
  scheduled_until: optionalUtcTimestampField,
  postmortem_body: z.string().nullish(),
  postmortem_published_at: optionalUtcTimestampField,
  components: z.array(componentSchema).nullish(),
  incident_updates: z.array(updateSchema).nullish(),
});
export type StatuspageIncident = z.infer<typeof statuspageIncidentSchema>;

function normalizeImpact(impact: string | null | undefined): Impact | null {
  const parsed = impactSchema.safeParse(impact);
  return parsed.success ? parsed.data : null;
}

function incidentUrl(raw: StatuspageIncident, page: StatuspagePage | null | undefined): string | null {
  const base = page?.url?.trim().replace(/\/+$/, "");
  if (base) return `${base}/incidents/${raw.id}`;
  return raw.shortlink ?? null;
}

/** One Statuspage incident or maintenance as the normalized incident; timestamps are already UTC. */
export function reshapeStatuspageIncident(
  raw: StatuspageIncident,
  page: StatuspagePage | null | undefined,
  ctx: ParseContext,
): Incident {
  const impact = normalizeImpact(raw.impact);
  const postmortemBody = raw.postmortem_body ?? "";
  return {
    vendor: ctx.vendor,
    id: raw.id,
    kind: raw.scheduled_for != null || impact === "maintenance" ? "maintenance" : "incident",
    title: raw.name,
    status: raw.status ?? null,
    impact,
    url: incidentUrl(raw, page),
    startedAt: raw.started_at ?? raw.created_at ?? null,
    resolvedAt: raw.resolved_at ?? null,
    scheduledFor: raw.scheduled_for ?? null,
    scheduledUntil: raw.scheduled_until ?? null,
    components: (raw.components ?? []).map((c) => ({ id: c.id, name: c.name })),
    updates: (raw.incident_updates ?? []).map((u) => ({
      id: u.id,
      status: u.status ?? null,
      body: u.body ?? "",
      createdAt: u.created_at ?? null,
      displayAt: u.display_at ?? u.created_at ?? null,
    })),
    postmortem:
      postmortemBody.trim() === ""
        ? null
        : { body: postmortemBody, publishedAt: raw.postmortem_published_at ?? null },
  };
}

/** Incidents of one snapshot, first listing wins when the same id is listed twice. */
export function reshapeStatuspageList(
  lists: ReadonlyArray<readonly StatuspageIncident[] | null | undefined>,
  page: StatuspagePage | null | undefined,
  ctx: ParseContext,
): Incident[] {
  return keepFirstById(lists.flatMap((list) => list ?? [])).map((raw) => reshapeStatuspageIncident(raw, page, ctx));
}
