/**
 * Instatus public `/summary.json` (https://instatus.com/help/api/public-data): the active incidents and
 * maintenances, each with a name, status, impact, start and link, but no updates or components.
 * Times are JavaScript `Date.toString()` output, "Sat Jun 11 2022 18:55:50 GMT+0000 (Coordinated
 * Universal Time)"; ISO-8601 is accepted too. Incidents carry no id field: the id is the last segment
 * of their link (…/incident/<id>, …/maintenance/<id>). Instatus's incident list API needs a key, so
 * no public history is read.
 */
import type { StatedField } from "@/lib/derive/source-profile";
import { z } from "zod";
import type { Impact, Incident } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { formatUtc, TimestampError, toUtcIso } from "@/lib/time";
import { decodeJson, parseWithSchema, type Platform } from "@/scrapers/platforms/platform";
import { joinPath, type ReadObject, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

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

const incidentShape = {
  id: z.string().min(1).nullish(),
  name: z.string(),
  started: optionalJsDateField,
  status: z.string().nullish(),
  impact: z.string().nullish(),
  url: eventLinkField,
};

const maintenanceShape = {
  id: z.string().min(1).nullish(),
  name: z.string(),
  start: optionalJsDateField,
  status: z.string().nullish(),
  duration: z.union([z.string(), z.number()]).nullish(),
  url: eventLinkField,
};

const summarySchema = z.object({
  page: z.record(z.string(), z.unknown()),
  activeIncidents: z.unknown().optional(),
  activeMaintenances: z.unknown().optional(),
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

interface EventKey {
  id: string;
  url: string | null;
}

/**
 * The event's id, from its own field or else its link. An id given but unreadable could be anything:
 * the event cannot be told from others then. A link without an id is only a missing link when an
 * id is given.
 */
function eventKey(values: { id?: string | null; url?: { url: string; id: string } }, failed: ReadonlySet<string>): EventKey | null {
  if (failed.has("id")) return null;
  const id = values.id ?? values.url?.id;
  return id === undefined ? null : { id, url: values.url?.url ?? null };
}

function reshapeEvent(key: EventKey, vendor: string, fields: Pick<Incident, "kind" | "title" | "status" | "impact" | "startedAt" | "scheduledFor" | "scheduledUntil">): Incident {
  return { vendor, id: key.id, url: key.url, resolvedAt: null, components: [], updates: [], postmortem: null, ...fields };
}

/** An event's fields and key; null when it has no key, which leaves it unread. Of several with one key the first is kept. */
function readEvent<S extends typeof incidentShape | typeof maintenanceShape>(
  reader: SnapshotReader, shape: S, raw: unknown, path: string, seen: Set<string>,
): { key: EventKey; read: ReadObject<S> } | null {
  const read = reader.fields(shape, raw, path);
  const key = read ? eventKey(read.values, read.failed) : null;
  if (!read || key === null) {
    reader.unreadIncident(null, path);
    return null;
  }
  if (seen.has(key.id)) return null;
  seen.add(key.id);
  return { key, read };
}

function readIncident(reader: SnapshotReader, raw: unknown, path: string, seen: Set<string>): void {
  const event = readEvent(reader, incidentShape, raw, path, seen);
  if (!event) return;
  const { values: v, failed } = event.read;
  const unstated: StatedField[] = [];
  if (failed.has("name")) unstated.push("title");
  if (failed.has("status")) unstated.push("status");
  if (failed.has("impact")) unstated.push("impact");
  if (failed.has("started")) unstated.push("startedAt");
  if (failed.has("url")) unstated.push("url");
  // A word outside Instatus's vocabulary cannot be read: it states nothing, rather than "none".
  const impact = v.impact ? IMPACTS.get(upper(v.impact)) : null;
  if (impact === undefined) {
    reader.warn(joinPath(path, "impact"), `unknown impact ${JSON.stringify(v.impact)}`);
    unstated.push("impact");
  }
  const status = v.status ? INCIDENT_STATUSES.get(upper(v.status)) : null;
  if (status === undefined) {
    reader.warn(joinPath(path, "status"), `unknown status ${JSON.stringify(v.status)}`);
    unstated.push("status");
  }
  const incident = reshapeEvent(event.key, reader.context.vendor, {
    kind: "incident",
    title: v.name ?? "",
    status: status ?? null,
    impact: impact ?? null,
    startedAt: v.started ?? null,
    scheduledFor: null,
    scheduledUntil: null,
  });
  reader.observe({ incident, path, unstated, partialUpdates: false });
}

function readMaintenance(reader: SnapshotReader, raw: unknown, path: string, seen: Set<string>): void {
  const event = readEvent(reader, maintenanceShape, raw, path, seen);
  if (!event) return;
  const { values: v, failed } = event.read;
  const unstated: StatedField[] = [];
  if (failed.has("name")) unstated.push("title");
  if (failed.has("status")) unstated.push("status");
  if (failed.has("start")) unstated.push("startedAt", "scheduledFor", "scheduledUntil");
  else if (failed.has("duration")) unstated.push("scheduledUntil");
  if (failed.has("url")) unstated.push("url");
  const start = v.start ?? null;
  const incident = reshapeEvent(event.key, reader.context.vendor, {
    kind: "maintenance",
    title: v.name ?? "",
    status: MAINTENANCE_STATUSES.get(upper(v.status)) ?? null,
    impact: "maintenance",
    startedAt: start,
    scheduledFor: start,
    scheduledUntil: endAfter(start, v.duration),
  });
  // The summary gives the window's planned start only: when the work really began is worked out from it.
  reader.observe({ incident, path, unstated, statements: { startedAt: "inferred" }, partialUpdates: false });
}

export const instatusSummaryPlatform: Platform = {
  name: "instatus-summary",
  description: "Instatus /summary.json: active incidents and maintenances (no updates, no components)",
  profile: PLATFORM_PROFILES["instatus-summary"],
  parserVersion: 1,
  async parse(body, ctx) {
    const summary = parseWithSchema(summarySchema, decodeJson(body, ctx), ctx);
    const reader = new SnapshotReader(ctx);
    const seen = new Set<string>();
    const lists = [
      { key: "activeIncidents", list: summary.activeIncidents, read: readIncident },
      { key: "activeMaintenances", list: summary.activeMaintenances, read: readMaintenance },
    ];
    for (const { key, list, read } of lists) {
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) {
        reader.unreadIncident(null, key, `expected a list, got ${typeof list}`);
        continue;
      }
      list.forEach((raw: unknown, i) => read(reader, raw, joinPath(key, i), seen));
    }
    return reader.snapshot();
  },
};
