import { z } from "zod";

/** ISO-8601 UTC with milliseconds, the only timestamp form stored. */
export const utcTimestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, "expected ISO-8601 UTC with milliseconds");

export const impactSchema = z.enum(["none", "minor", "major", "critical", "maintenance"]);
export type Impact = z.infer<typeof impactSchema>;

export const incidentKindSchema = z.enum(["incident", "maintenance"]);

export const componentSchema = z.object({ id: z.string().min(1), name: z.string() });
export type Component = z.infer<typeof componentSchema>;

export const incidentUpdateSchema = z.object({
  id: z.string().min(1),
  status: z.string().nullable(),
  body: z.string(),
  createdAt: utcTimestampSchema.nullable(),
  displayAt: utcTimestampSchema.nullable(),
});
export type IncidentUpdate = z.infer<typeof incidentUpdateSchema>;

export const postmortemSchema = z.object({
  body: z.string(),
  publishedAt: utcTimestampSchema.nullable(),
});
export type Postmortem = z.infer<typeof postmortemSchema>;

export const incidentSchema = z.object({
  vendor: z.string().min(1),
  id: z.string().min(1),
  kind: incidentKindSchema,
  title: z.string(),
  status: z.string().nullable(),
  impact: impactSchema.nullable(),
  url: z.string().nullable(),
  startedAt: utcTimestampSchema.nullable(),
  resolvedAt: utcTimestampSchema.nullable(),
  scheduledFor: utcTimestampSchema.nullable(),
  scheduledUntil: utcTimestampSchema.nullable(),
  components: z.array(componentSchema),
  updates: z.array(incidentUpdateSchema),
  postmortem: postmortemSchema.nullable(),
});
export type Incident = z.infer<typeof incidentSchema>;

/** Whether the incident is listed by the source that last listed it. */
export const presenceSchema = z.enum(["listed", "left-feed", "deleted"]);
export type Presence = z.infer<typeof presenceSchema>;

/** What one version records: the incident as last seen, and whether its feed still lists it. */
export const incidentStateSchema = z.object({
  incident: incidentSchema,
  presence: presenceSchema,
});
export type IncidentState = z.infer<typeof incidentStateSchema>;

const RESOLVED_STATUSES = new Set(["resolved", "completed", "postmortem", "closed", "fixed", "ok"]);

/** Statuses after which the vendor considers the incident over. */
export function isResolvedStatus(status: string | null): boolean {
  return status !== null && RESOLVED_STATUSES.has(status);
}

/** Whether an incident is open: its feed lists it, and it is neither resolved nor ended. */
export function isOpenIncident(incident: { status: string | null; resolvedAt: string | null }, presence: string): boolean {
  return presence === "listed" && incident.resolvedAt === null && !isResolvedStatus(incident.status);
}

const IMPACT_RANK: Partial<Record<Impact, number>> = { none: 0, minor: 1, major: 2, critical: 3 };

/**
 * Severity order used to tell an escalation from a downgrade. Maintenance and "not stated" are
 * not steps of that scale: null, so a change to or from them is neither.
 */
export function rankImpact(impact: Impact | null): number | null {
  return impact === null ? null : (IMPACT_RANK[impact] ?? null);
}

/** One entry per id, the first listing winning: feeds sometimes list an incident twice. */
export function keepFirstById<T extends { id: string }>(items: Iterable<T>): T[] {
  const byId = new Map<string, T>();
  for (const item of items) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()];
}
