/**
 * Slack status API v2.0.0 (https://slack-status.com/api/v2.0.0/current and /history).
 * Format: https://docs.slack.dev/reference/slack-status-api (`current` wraps the active incidents,
 * `history` is a bare array of the same incident objects). Notes have no ids.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { exactProfile } from "@/lib/derive/source-profile";
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import { type Impact, type Incident, type IncidentUpdate, keepFirstById } from "@/lib/incident";
import { deriveUpdateIds } from "@/lib/update-identity";
import { decodeJson, parseWithSchema, type ParseContext, type Platform, utcTimestampField } from "@/scrapers/platforms/platform";


const noteSchema = z.object({ date_created: utcTimestampField, body: z.string() });
type SlackNote = z.infer<typeof noteSchema>;

export const slackIncidentSchema = z.object({
  id: z.union([z.number().int(), z.string().min(1)]),
  title: z.string(),
  type: z.string(),
  status: z.string(),
  url: z.string().nullish(),
  date_created: utcTimestampField,
  services: z.array(z.string()).nullish(),
  notes: z.array(noteSchema).nullish(),
});
type SlackIncident = z.infer<typeof slackIncidentSchema>;

export const slackCurrentSchema = z.object({ active_incidents: z.array(slackIncidentSchema) });
export const slackHistorySchema = z.array(slackIncidentSchema);

const TYPE_IMPACT = new Map<string, Impact>([
  ["outage", "major"],
  ["incident", "minor"],
  ["notice", "none"],
  ["maintenance", "maintenance"],
]);

const HTML_TAG = /<\/?[a-z][a-z0-9]*(?:\s[^<>]*)?\/?>/i;

/** Newer notes are HTML, older ones plain text whose line breaks must survive. */
export function noteBodyText(body: string): string {
  return HTML_TAG.test(body) ? htmlToText(body) : body;
}

function byCreated(a: SlackNote, b: SlackNote): number {
  return a.date_created < b.date_created ? -1 : a.date_created > b.date_created ? 1 : 0;
}

export function reshapeSlackNotes(notes: readonly SlackNote[]): IncidentUpdate[] {
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

export function reshapeSlackIncident(raw: SlackIncident, vendor: string): Incident {
  const updates = reshapeSlackNotes(raw.notes ?? []);
  const type = raw.type.toLowerCase();
  const over = raw.status === "resolved" || raw.status === "completed";
  return {
    vendor,
    id: String(raw.id),
    kind: type === "maintenance" ? "maintenance" : "incident",
    title: raw.title,
    status: raw.status,
    impact: TYPE_IMPACT.get(type) ?? null,
    url: raw.url ?? null,
    startedAt: raw.date_created,
    resolvedAt: over ? (updates.at(-1)?.createdAt ?? null) : null,
    scheduledFor: null,
    scheduledUntil: null,
    // A blank service name cannot identify a component; the rest of the incident still counts.
    components: (raw.services ?? []).filter((name) => name.trim() !== "").map((name) => ({ id: name, name })),
    updates,
    postmortem: null,
  };
}

function reshapeSlackIncidents(raw: readonly SlackIncident[], vendor: string): Incident[] {
  return keepFirstById(raw.map((element) => reshapeSlackIncident(element, vendor)));
}

export function parseSlackCurrent(body: Uint8Array, context: ParseContext): Incident[] {
  const raw = parseWithSchema(slackCurrentSchema, decodeJson(body, context), context);
  return reshapeSlackIncidents(raw.active_incidents, context.vendor);
}

export function parseSlackHistory(body: Uint8Array, context: ParseContext): Incident[] {
  const raw = parseWithSchema(slackHistorySchema, decodeJson(body, context), context);
  return reshapeSlackIncidents(raw, context.vendor);
}

export const slackPlatform: Platform = {
  name: "slack",
  description: "Slack status API v2 `current`: the active incidents with their notes",
  profile: exactProfile({ kind: "active" }),
  parserVersion: 1,
  async parse(body, context) {
    return wholeSnapshot(parseSlackCurrent(body, context));
  },
};

export const slackHistoryPlatform: Platform = {
  name: "slack-history",
  description: "Slack status API v2 `history`: recent incidents of any status",
  profile: exactProfile({ kind: "recent", limit: null }),
  parserVersion: 1,
  async parse(body, context) {
    return wholeSnapshot(parseSlackHistory(body, context));
  },
};
