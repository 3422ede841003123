/**
 * Instatus public `/summary.json` (https://instatus.com/help/api/public-data): the active incidents and
 * maintenances, each with a name, status, impact, start and link, but no updates or components.
 * Times are JavaScript `Date.toString()` output, "Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated
 * Universal Time)"; ISO-8601 is accepted too. Incidents carry no id field: the id is the last segment
 * of their link (…/incident/<id>, …/maintenance/<id>). Instatus's incident list API needs a key, so
 * no public history is read.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { statingOnly } from "@/lib/derive/source-profile";
import { z } from "zod";
import { type Impact, type Incident, keepFirstById } from "@/lib/incident";
import { formatUtc, TimestampError, toUtcIso } from "@/lib/time";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const JS_DATE = /^[a-z]{3} ([a-z]{3}) (\d{1,2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT([+-]\d{2})(\d{2})(?: \([^)]*\))?$/i;

/** A JavaScript Date.toString() (or ISO-8601) time as ISO UTC. */
export function jsDateToIso(value: string): string {
  const m = JS_DATE.exec(value.trim());
  if (!m) return toUtcIso(value);
  const month = MONTHS.indexOf((m[1] ?? "").toLowerCase()) + 1;
  if (month === 0) throw new TimestampError(`unknown month in ${JSON.stringify(value.slice(0, 64))}`);
  const day = (m[2] ?? "").padStart(2, "0");
  return toUtcIso(`${m[3]}-${String(month).padStart(2, "0")}-${day}T${m[4]}:${m[5]}:${m[6]}${m[7]}:${m[8]}`);
}

const jsDateField = z.string().transform((value, ctx) => {
  try {
    return jsDateToIso(value);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    ctx.addIssue({ code: "custom", message: error.message });
    return z.NEVER;
  }
});
const optionalJsDateField = jsDateField.nullish().transform((value) => value ?? null);

/** The id at the end of the event's link; an event without one cannot be followed. */
const eventLinkField = z.string().transform((url, ctx) => {
  const id = /\/(?:incidents?|maintenances?)\/([A-Za-z0-9_-]+)\/?(?:[?#].*)?$/.exec(url.trim())?.[1];
  if (id) return { url: url.trim(), id };
  ctx.addIssue({ code: "custom", message: `no …/incident/<id> or …/maintenance/<id> in ${JSON.stringify(url.slice(0, 80))}` });
  return z.NEVER;
});

const incidentSchema = z.object({
  id: z.string().min(1).nullish(),
  name: z.string(),
  started: optionalJsDateField,
  status: z.string().nullish(),
  impact: z.string().nullish(),
  url: eventLinkField,
});
type InstatusIncident = z.infer<typeof incidentSchema>;

const maintenanceSchema = z.object({
  id: z.string().min(1).nullish(),
  name: z.string(),
  start: optionalJsDateField,
  status: z.string().nullish(),
  duration: z.union([z.string(), z.number()]).nullish(),
  url: eventLinkField,
});
type InstatusMaintenance = z.infer<typeof maintenanceSchema>;

export const instatusSummarySchema = z.object({
  page: z.object({ name: z.string().nullish(), url: z.string().nullish(), status: z.string().nullish() }),
  activeIncidents: z.array(incidentSchema).nullish(),
  activeMaintenances: z.array(maintenanceSchema).nullish(),
});

const INCIDENT_STATUSES = new Map([
  ["INVESTIGATING", "investigating"],
  ["IDENTIFIED", "identified"],
  ["MONITORING", "monitoring"],
  ["RESOLVED", "resolved"],
]);
const MAINTENANCE_STATUSES = new Map([
  ["NOTSTARTEDYET", "scheduled"],
  ["INPROGRESS", "in_progress"],
  ["COMPLETED", "completed"],
]);
// Instatus's component states; the worst one affected is the incident's impact.
const IMPACTS = new Map<string, Impact>([
  ["OPERATIONAL", "none"],
  ["DEGRADEDPERFORMANCE", "minor"],
  ["PARTIALOUTAGE", "major"],
  ["MINOROUTAGE", "major"],
  ["MAJOROUTAGE", "critical"],
  ["UNDERMAINTENANCE", "maintenance"],
]);

function upper(value: string | null | undefined): string {
  return (value ?? "").trim().toUpperCase();
}

/** Minutes as given ("60" or 60); anything else leaves the end unknown. */
function endAfter(start: string | null, duration: string | number | null | undefined): string | null {
  const minutes = typeof duration === "number" ? duration : /^\s*\d+\s*$/.test(duration ?? "") ? Number(duration) : NaN;
  if (start === null || !Number.isFinite(minutes) || minutes < 0) return null;
  try {
    return formatUtc(Date.parse(start) + minutes * 60_000);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    return null;
  }
}

function reshapeIncident(raw: InstatusIncident, vendor: string): Incident {
  return {
    vendor,
    id: raw.id ?? raw.url.id,
    kind: "incident",
    title: raw.name,
    status: INCIDENT_STATUSES.get(upper(raw.status)) ?? null,
    impact: IMPACTS.get(upper(raw.impact)) ?? null,
    url: raw.url.url,
    startedAt: raw.started,
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates: [],
    postmortem: null,
  };
}

function reshapeMaintenance(raw: InstatusMaintenance, vendor: string): Incident {
  return {
    vendor,
    id: raw.id ?? raw.url.id,
    kind: "maintenance",
    title: raw.name,
    status: MAINTENANCE_STATUSES.get(upper(raw.status)) ?? null,
    impact: "maintenance",
    url: raw.url.url,
    startedAt: raw.start,
    resolvedAt: null,
    scheduledFor: raw.start,
    scheduledUntil: endAfter(raw.start, raw.duration),
    components: [],
    updates: [],
    postmortem: null,
  };
}

export function parseInstatusSummary(body: Uint8Array, ctx: ParseContext): Incident[] {
  const raw = parseWithSchema(instatusSummarySchema, decodeJson(body, ctx), ctx);
  return keepFirstById([
    ...(raw.activeIncidents ?? []).map((i) => reshapeIncident(i, ctx.vendor)),
    ...(raw.activeMaintenances ?? []).map((m) => reshapeMaintenance(m, ctx.vendor)),
  ]);
}

export const instatusSummaryPlatform: Platform = {
  name: "instatus-summary",
  description: "Instatus /summary.json: active incidents and maintenances (no updates, no components)",
  profile: statingOnly({ kind: "active" }, ["kind", "title", "status", "impact", "url", "startedAt", "scheduledFor", "scheduledUntil"]),
  parserVersion: 1,
  async parse(body, ctx) {
    return wholeSnapshot(parseInstatusSummary(body, ctx));
  },
};
