/**
 * Slack status API v2.0.0 (https://slack-status.com/api/v2.0.0/current and /history).
 * Format: https://docs.slack.dev/reference/slack-status-api (`current` wraps the active incidents,
 * `history` is a bare array of the same incident objects). Notes have no ids. Each incident is
 * read field by field: a malformed field, service or note costs only itself.
 */
import { z } from "zod";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import type { StatedField } from "@/lib/derive/source-profile";
import { htmlToText } from "@/lib/html-to-text";
import type { Impact, Incident, IncidentUpdate } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { deriveUpdateIds } from "@/lib/update-identity";
import { decodeJson, parseWithSchema, type ParseContext, type Platform, utcTimestampField } from "@/scrapers/platforms/platform";
import { joinPath, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const noteSchema = z.object({ date_created: utcTimestampField, body: z.string() });
type SlackNote = z.infer<typeof noteSchema>;

const TYPE_IMPACT = new Map<string, Impact>([
  ["outage", "major"],
  ["incident", "minor"],
  ["notice", "none"],
  ["maintenance", "maintenance"],
]);

// An unknown type may be a new kind of maintenance as well as a new severity: it states neither.
const typeSchema = z.string().transform((value, ctx) => {
  const type = value.toLowerCase();
  const impact = TYPE_IMPACT.get(type);
  if (impact !== undefined) return { kind: type === "maintenance" ? ("maintenance" as const) : ("incident" as const), impact };
  ctx.addIssue({ code: "custom", message: `unknown incident type ${JSON.stringify(value.slice(0, 40))}` });
  return z.NEVER;
});

const incidentShape = {
  id: z.union([z.number().int(), z.string().min(1)]),
  title: z.string(),
  type: typeSchema,
  status: z.string(),
  url: z.string().nullish(),
  date_created: utcTimestampField,
  services: z.unknown(),
  notes: z.unknown(),
};

const OVER_STATUSES = new Set(["resolved", "completed"]);

const HTML_TAG = /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/i;

/** Newer notes are HTML, older ones plain text whose line breaks must survive. */
export function noteBodyText(body: string): string {
  return HTML_TAG.test(body) ? htmlToText(body) : body;
}

function byCreated(a: SlackNote, b: SlackNote): number {
  return a.date_created < b.date_created ? -1 : a.date_created > b.date_created ? 1 : 0;
}

function reshapeSlackNotes(notes: readonly SlackNote[]): IncidentUpdate[] {
  // `current` lists notes newest first and `history` oldest first; ids are derived in time order.
  const oldestFirst = [...notes].sort(byCreated);
  const ids = deriveUpdateIds(oldestFirst.map((n) => n.date_created));
  return oldestFirst.map((note, i) => ({
    id: ids[i] ?? note.date_created,
    status: null,
    body: noteBodyText(note.body),
    createdAt: note.date_created,
    displayAt: note.date_created,
  }));
}

/**
 * One incident as an observation. A field that cannot be read is not stated, and neither is what
 * is worked out from it: kind and impact come from the type, the end from the newest note.
 */
function readSlackIncident(reader: SnapshotReader, raw: unknown, path: string, listed: Set<string>, ctx: ParseContext): void {
  const read = reader.fields(incidentShape, raw, path);
  const rawId = read?.values.id;
  if (!read || rawId === undefined) {
    // The reader has already said what was wrong at this path.
    reader.unreadIncident(null, path);
    return;
  }
  const id = String(rawId);
  if (listed.has(id)) return;
  listed.add(id);
  const { values: v, failed } = read;
  const unstated = new Set<StatedField | "updates">();
  const lose = (key: keyof typeof incidentShape, ...fields: StatedField[]) => {
    if (failed.has(key)) for (const f of fields) unstated.add(f);
  };
  lose("title", "title");
  lose("type", "kind", "impact");
  lose("status", "status", "resolvedAt");
  lose("url", "url");
  lose("date_created", "startedAt");

  const services = reader.items(z.string(), v.services, joinPath(path, "services"));
  if (services === null || services.skipped > 0) unstated.add("components");
  const notes = reader.items(noteSchema, v.notes, joinPath(path, "notes"));
  if (notes === null) unstated.add("updates");
  const updates = reshapeSlackNotes(notes?.items ?? []);
  const over = v.status !== undefined && OVER_STATUSES.has(v.status);
  // A resolved incident ends at its newest note, which may be one that could not be read.
  if (over && (notes === null || notes.skipped > 0)) unstated.add("resolvedAt");

  const incident: Incident = {
    vendor: ctx.vendor,
    id,
    kind: v.type?.kind ?? "incident",
    title: v.title ?? "",
    status: v.status ?? null,
    impact: v.type?.impact ?? null,
    url: v.url ?? null,
    startedAt: v.date_created ?? null,
    resolvedAt: over ? (updates.at(-1)?.createdAt ?? null) : null,
    scheduledFor: null,
    scheduledUntil: null,
    // A blank service name cannot identify a component; the rest of the incident still counts.
    components: (services?.items ?? []).filter((name) => name.trim() !== "").map((name) => ({ id: name, name })),
    updates,
    postmortem: null,
  };
  reader.observe({ incident, path, unstated: [...unstated], partialUpdates: (notes?.skipped ?? 0) > 0 });
}

function readSlackIncidents(list: readonly unknown[], listPath: string, ctx: ParseContext): ParsedSnapshot {
  const reader = new SnapshotReader(ctx);
  // The first listing of an id wins.
  const listed = new Set<string>();
  list.forEach((raw, i) => readSlackIncident(reader, raw, joinPath(listPath, i), listed, ctx));
  return reader.snapshot();
}

const currentSchema = z.object({ active_incidents: z.array(z.unknown()) });
const historySchema = z.array(z.unknown());


export const slackPlatform: Platform = {
  name: "slack",
  description: "Slack status API v2 `current`: the active incidents with their notes",
  profile: PLATFORM_PROFILES.slack,
  parserVersion: 2,
  async parse(body, context) {
    const current = parseWithSchema(currentSchema, decodeJson(body, context), context);
    return readSlackIncidents(current.active_incidents, "active_incidents", context);
  },
};

export const slackHistoryPlatform: Platform = {
  name: "slack-history",
  description: "Slack status API v2 `history`: recent incidents of any status",
  profile: PLATFORM_PROFILES["slack-history"],
  parserVersion: 2,
  async parse(body, context) {
    return readSlackIncidents(parseWithSchema(historySchema, decodeJson(body, context), context), "", context);
  },
};
