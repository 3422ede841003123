/**
 * Statuspage history feeds, `/history.atom` and `/history.rss`: the 25 most recent incidents
 * and maintenances, every update inside the entry's escaped HTML, dates printed without a year
 * (https://developer.statuspage.io/, https://support.atlassian.com/statuspage/).
 */
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import type { Incident, IncidentUpdate, Postmortem } from "@/lib/incident";
import { TimestampError, toUtcIso, zoneAbbreviationOffset } from "@/lib/time";
import { deriveUpdateIds } from "@/lib/update-identity";
import { invalidFeedItem, MONTHS, pad, parseFeedDocument, rfc822Field } from "@/scrapers/platforms/feed-document";
import {
  parseWithSchema,
  type ParseContext,
  type Platform,
  utcTimestampField,
} from "@/scrapers/platforms/platform";

const MAINTENANCE_STATUSES = new Set(["scheduled", "in_progress", "verifying", "completed"]);
const CLOSING_STATUSES = new Set(["resolved", "completed"]);
const OVER_STATUSES = new Set(["resolved", "completed", "postmortem"]);
/** The feed prints "Update" for an update that kept the previous status; it says nothing of the incident. */
const STATUS_KEPT = "update";
/** Display times may sit a little after the entry's own dates (vendor clock, forward-dated updates). */
const YEAR_SLACK_MS = 2 * 86_400_000;

const UPDATE_MARKER =
  /<p>\s*<small>([\s\S]*?)<\/small>\s*(?:<br\s*\/?>\s*)?<strong>([\s\S]*?)<\/strong>\s*(?:-|–|—)?\s*/gi;
const STAMP_PATTERN = /^([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:,?\s+(\d{4}))?,?\s+(\d{1,2}):(\d{2})\s*(.*)$/i;

interface FeedStamp {
  month: number;
  day: number;
  year: number | null;
  hour: number;
  minute: number;
  offsetMinutes: number;
}

interface FeedUpdate {
  stamp: FeedStamp;
  status: string;
  body: string;
}

function formatOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** "Apr 30, 21:05 UTC" (year absent) as a stamp, or an error message. */
function readStamp(text: string): FeedStamp | string {
  const m = STAMP_PATTERN.exec(text.trim());
  const month = m ? MONTHS.indexOf((m[1] ?? "").toLowerCase()) + 1 : 0;
  if (!m || month === 0) return `unreadable update time ${JSON.stringify(text)}`;
  const zone = (m[6] ?? "").trim();
  const offsetMinutes = zoneAbbreviationOffset(zone);
  if (offsetMinutes === null) {
    return `unknown time zone ${JSON.stringify(zone)} in update time ${JSON.stringify(text)}`;
  }
  const year = m[3] ? Number(m[3]) : null;
  const stamp = { month, day: Number(m[2]), year, hour: Number(m[4]), minute: Number(m[5]), offsetMinutes };
  // 2000 is a leap year, so only dates that exist in no year are refused here.
  return stampToIso(stamp, stamp.year ?? 2000) === null ? `impossible update time ${JSON.stringify(text)}` : stamp;
}

function stampToIso(stamp: FeedStamp, year: number): string | null {
  const local = `${year}-${pad(stamp.month)}-${pad(stamp.day)}T${pad(stamp.hour)}:${pad(stamp.minute)}:00`;
  try {
    return toUtcIso(`${local}${formatOffset(stamp.offsetMinutes)}`);
  } catch {
    return null;
  }
}

/** The year that puts the stamp closest to, and not far after, the reference time. */
function resolveStamp(stamp: FeedStamp, referenceMs: number): string {
  const referenceYear = new Date(referenceMs).getUTCFullYear();
  const years = stamp.year !== null ? [stamp.year] : Array.from({ length: 10 }, (_, i) => referenceYear + 1 - i);
  for (const year of years) {
    const iso = stampToIso(stamp, year);
    if (iso !== null && (stamp.year !== null || Date.parse(iso) <= referenceMs + YEAR_SLACK_MS)) return iso;
  }
  throw new TimestampError(`no year fits ${stamp.month}/${stamp.day} near ${new Date(referenceMs).toISOString()}`);
}

const updatesSchema = z.string().transform((html, ctx): FeedUpdate[] => {
  const updates: FeedUpdate[] = [];
  const markers = [...html.matchAll(UPDATE_MARKER)];
  markers.forEach((marker, i) => {
    const stamp = readStamp(htmlToText(marker[1] ?? ""));
    const label = htmlToText(marker[2] ?? "").toLowerCase().replace(/\s+/g, "_");
    if (typeof stamp === "string") ctx.addIssue({ code: "custom", message: stamp });
    else if (label === "") ctx.addIssue({ code: "custom", message: "update without a status" });
    else {
      const end = markers[i + 1]?.index ?? html.length;
      const bodyHtml = html.slice((marker.index ?? 0) + marker[0].length, end).replace(/<\/p>\s*$/i, "");
      updates.push({ stamp, status: label, body: htmlToText(bodyHtml) });
    }
  });
  if (markers.length === 0 && html.trim() !== "") {
    ctx.addIssue({ code: "custom", message: "no <p><small>time</small><strong>status</strong> update found" });
  }
  return updates;
});

function incidentCode(url: string | undefined): string | null {
  return url ? (/\/incidents\/([A-Za-z0-9]+)/.exec(url)?.[1] ?? null) : null;
}

const entrySchema = z
  .object({
    title: z.string().optional(),
    link: z.string().optional(),
    guid: z.string().optional(),
    id: z.string().optional(),
    published: utcTimestampField.optional(),
    updated: utcTimestampField.optional(),
    pubDate: rfc822Field.optional(),
    content: updatesSchema,
  })
  .transform((entry, ctx) => {
    const fallback = (entry.guid ?? entry.id ?? "").trim();
    const key = incidentCode(entry.link) ?? incidentCode(entry.guid ?? entry.id) ?? fallback;
    if (key === "") {
      ctx.addIssue({ code: "custom", message: "entry has no /incidents/<code> link, guid or id" });
      return z.NEVER;
    }
    return { ...entry, key };
  });
type FeedEntry = z.infer<typeof entrySchema>;

const feedSchema = z.object({ items: z.array(entrySchema) });

/**
 * The latest of the entry's own dates, capped by the capture time: a maintenance's date can be its
 * scheduled start, in the future, while no update can have been posted after the capture.
 */
function referenceTime(entry: FeedEntry, observedMs: number): number {
  const own = [entry.published, entry.updated, entry.pubDate];
  const dates = own.flatMap((d) => (d === undefined ? [] : [Date.parse(d)]));
  return dates.length === 0 ? observedMs : Math.min(Math.max(...dates), observedMs);
}

function reshapeFeedEntry(entry: FeedEntry, ctx: ParseContext, observedMs: number): Incident {
  const reference = referenceTime(entry, observedMs);
  // The feed lists newest first; ids are derived oldest first so a new update never renumbers older ones.
  const timeline = entry.content
    .map((u) => ({ status: u.status, body: u.body, at: resolveStamp(u.stamp, reference) }))
    .reverse();
  const posted = timeline.filter((u) => u.status !== "postmortem");
  const ids = deriveUpdateIds(posted.map((u) => `${u.at}|${u.status}`));
  const updates: IncidentUpdate[] = posted.map((u, i) => ({
    id: ids[i] ?? `${u.at}|${u.status}`,
    status: u.status,
    body: u.body,
    createdAt: null,
    displayAt: u.at,
  }));
  const newestFirst = [...timeline].reverse();
  const status = (newestFirst.find((u) => u.status !== STATUS_KEPT) ?? newestFirst[0])?.status ?? null;
  const postmortemUpdate = newestFirst.find((u) => u.status === "postmortem");
  const postmortem: Postmortem | null = postmortemUpdate
    ? { body: postmortemUpdate.body, publishedAt: postmortemUpdate.at }
    : null;
  const maintenance = timeline.some((u) => MAINTENANCE_STATUSES.has(u.status));
  const over = status !== null && OVER_STATUSES.has(status);
  const closing = over ? newestFirst.find((u) => CLOSING_STATUSES.has(u.status)) : undefined;
  const times = posted.map((u) => u.at).sort();
  return {
    vendor: ctx.vendor,
    id: entry.key,
    kind: maintenance ? "maintenance" : "incident",
    title: (entry.title ?? "").trim(),
    status,
    impact: maintenance ? "maintenance" : null,
    url: entry.link?.trim() || null,
    startedAt: times[0] ?? null,
    resolvedAt: closing?.at ?? null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates,
    postmortem,
  };
}

async function parseStatuspageFeed(body: Uint8Array, ctx: ParseContext): Promise<Incident[]> {
  const observedMs = Date.parse(toUtcIso(ctx.observedAt));
  const parsed = parseWithSchema(feedSchema, await parseFeedDocument(body, ctx), ctx);
  return parsed.items.map((entry, i) => {
    try {
      return reshapeFeedEntry(entry, ctx, observedMs);
    } catch (error) {
      // The entry's own dates can put every candidate year for an update time out of range.
      if (!(error instanceof TimestampError)) throw error;
      throw invalidFeedItem(ctx, `items[${i}].content`, error.message);
    }
  });
}

export const statuspageAtomPlatform: Platform = {
  name: "statuspage-atom",
  description: "Atlassian Statuspage /history.atom: the 25 most recent incidents and maintenances",
  presence: { kind: "recent", limit: 25 },
  parserVersion: 1,
  parse: parseStatuspageFeed,
};

export const statuspageRssPlatform: Platform = {
  name: "statuspage-rss",
  description: "Atlassian Statuspage /history.rss: the 25 most recent incidents and maintenances",
  presence: { kind: "recent", limit: 25 },
  parserVersion: 1,
  parse: parseStatuspageFeed,
};

/**
 * history.atom read when a page's JSON API is switched off. For incidents the JSON API already
 * described it states only what the two formats share reliably: update ids, impact and
 * components differ in kind, and replacing them would look like vendor edits.
 */
export const statuspageAtomFallbackPlatform: Platform = {
  ...statuspageAtomPlatform,
  name: "statuspage-atom-fallback",
  description: "Atlassian Statuspage /history.atom polled while the JSON API is unavailable (title, status, end only for known incidents)",
  carries: ["title", "status", "resolvedAt"],
};
