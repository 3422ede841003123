/**
 * Statuspage history feeds, `/history.atom` and `/history.rss`: the 25 most recent incidents
 * and maintenances, every update inside the entry's escaped HTML, dates printed without a year
 * (https://developer.statuspage.io/, https://support.atlassian.com/statuspage/).
 */
import { z } from "zod";
import type { ParsedSnapshot } from "@/lib/derive/observation";
import type { StatedField } from "@/lib/derive/source-profile";
import { htmlToText } from "@/lib/html-to-text";
import type { Incident, IncidentUpdate, Postmortem } from "@/lib/incident";
import { PLATFORM_PROFILES, STATUSPAGE_FEED_KEPT_STATUS as STATUS_KEPT } from "@/lib/platform-profiles";
import { TimestampError, toUtcIso, zoneAbbreviationOffset } from "@/lib/time";
import { deriveUpdateIds } from "@/lib/update-identity";
import { MONTHS, pad, parseFeedDocument, rfc822Field } from "@/scrapers/platforms/feed-document";
import {
  parseWithSchema,
  type ParseContext,
  type Platform,
  utcTimestampField,
} from "@/scrapers/platforms/platform";
import { joinPath, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const MAINTENANCE_STATUSES = new Set(["scheduled", "in_progress", "verifying", "completed"]);
const CLOSING_STATUSES = new Set(["resolved", "completed"]);
const OVER_STATUSES = new Set(["resolved", "completed", "postmortem"]);
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
  /** Its place among the entry's update markers, for warnings. */
  index: number;
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

interface ReadUpdates {
  updates: FeedUpdate[];
  /** Some update markers could not be read: the list, and what is worked out from it, are incomplete. */
  skipped: number;
}

/** The updates inside an entry's HTML, newest first; one that cannot be read is skipped with a warning. */
function readUpdates(reader: SnapshotReader, html: string, path: string): ReadUpdates | null {
  const updates: FeedUpdate[] = [];
  const markers = [...html.matchAll(UPDATE_MARKER)];
  if (markers.length === 0) {
    if (html.trim() !== "") reader.warn(path, "no <p><small>time</small><strong>status</strong> update found");
    return html.trim() === "" ? { updates, skipped: 0 } : null;
  }
  let skipped = 0;
  markers.forEach((marker, i) => {
    const stamp = readStamp(htmlToText(marker[1] ?? ""));
    const label = htmlToText(marker[2] ?? "").toLowerCase().replace(/\s+/g, "_");
    const problem = typeof stamp === "string" ? stamp : label === "" ? "update without a status" : null;
    if (problem !== null || typeof stamp === "string") {
      skipped += 1;
      reader.warn(joinPath(path, "updates", i), problem ?? "unreadable update");
      return;
    }
    const end = markers[i + 1]?.index ?? html.length;
    const bodyHtml = html.slice((marker.index ?? 0) + marker[0].length, end).replace(/<\/p>\s*$/i, "");
    updates.push({ stamp, status: label, body: htmlToText(bodyHtml), index: i });
  });
  return { updates, skipped };
}

function incidentCode(url: string | undefined): string | null {
  return url ? (/\/incidents\/([A-Za-z0-9]+)/.exec(url)?.[1] ?? null) : null;
}

const entryShape = {
  title: z.string().optional(),
  link: z.string().optional(),
  guid: z.string().optional(),
  id: z.string().optional(),
  published: utcTimestampField.optional(),
  updated: utcTimestampField.optional(),
  pubDate: rfc822Field.optional(),
  content: z.string().optional(),
};

const feedSchema = z.object({ items: z.array(z.unknown()) });

/**
 * The latest of the entry's own dates, capped by the capture time: a maintenance's date can be its
 * scheduled start, in the future, while no update can have been posted after the capture.
 */
function referenceTime(dates: ReadonlyArray<string | undefined>, observedMs: number): number {
  const known = dates.flatMap((d) => (d === undefined ? [] : [Date.parse(d)]));
  return known.length === 0 ? observedMs : Math.min(Math.max(...known), observedMs);
}

/** Everything an entry says is in its updates; what is worked out from them needs them all. */
const FROM_UPDATES: StatedField[] = ["status", "kind", "impact", "startedAt", "resolvedAt", "postmortem"];

function readFeedEntry(reader: SnapshotReader, raw: unknown, path: string, ctx: ParseContext, observedMs: number): void {
  const read = reader.fields(entryShape, raw, path);
  if (!read) {
    reader.unreadIncident(null, path);
    return;
  }
  const entry = read.values;
  const fallback = (entry.guid ?? entry.id ?? "").trim();
  const key = incidentCode(entry.link) ?? incidentCode(entry.guid ?? entry.id) ?? fallback;
  if (key === "") {
    reader.unreadIncident(null, path, "entry has no /incidents/<code> link, guid or id");
    return;
  }
  const reference = referenceTime([entry.published, entry.updated, entry.pubDate], observedMs);
  // Every history entry carries its updates: one without content says nothing of them.
  if (entry.content === undefined && !read.failed.has("content")) reader.warn(joinPath(path, "content"), "entry has no content");
  const content = entry.content === undefined ? null : readUpdates(reader, entry.content, joinPath(path, "content"));
  const unstated = new Set<StatedField | "updates">();
  if (read.failed.has("title")) unstated.add("title");
  if (read.failed.has("link")) unstated.add("url");
  const timeline: Array<{ status: string; body: string; at: string }> = [];
  let skipped = content?.skipped ?? 0;
  for (const u of content?.updates ?? []) {
    try {
      timeline.push({ status: u.status, body: u.body, at: resolveStamp(u.stamp, reference) });
    } catch (error) {
      // The entry's own dates can put every candidate year for an update time out of range.
      if (!(error instanceof TimestampError)) throw error;
      skipped += 1;
      reader.warn(joinPath(path, "content", "updates", u.index), error.message);
    }
  }
  // The feed lists newest first; ids are derived oldest first so a new update never renumbers older ones.
  timeline.reverse();
  if (content === null) unstated.add("updates");
  if (content === null || skipped > 0) for (const f of FROM_UPDATES) unstated.add(f);
  const incident = reshapeTimeline(timeline, ctx, key, entry.title, entry.link);
  if (incident.kind !== "maintenance") unstated.add("impact");
  reader.observe({ incident, path, unstated: [...unstated], partialUpdates: skipped > 0 });
}

function reshapeTimeline(timeline: ReadonlyArray<{ status: string; body: string; at: string }>, ctx: ParseContext, key: string, title: string | undefined, link: string | undefined): Incident {
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
    id: key,
    kind: maintenance ? "maintenance" : "incident",
    title: (title ?? "").trim(),
    status,
    impact: maintenance ? "maintenance" : null,
    url: link?.trim() || null,
    startedAt: times[0] ?? null,
    resolvedAt: closing?.at ?? null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [],
    updates,
    postmortem,
  };
}

async function parseStatuspageFeed(body: Uint8Array, ctx: ParseContext): Promise<ParsedSnapshot> {
  const observedMs = Date.parse(toUtcIso(ctx.observedAt));
  const feed = parseWithSchema(feedSchema, await parseFeedDocument(body, ctx), ctx);
  const reader = new SnapshotReader(ctx);
  feed.items.forEach((raw, i) => readFeedEntry(reader, raw, joinPath("items", i), ctx, observedMs));
  return reader.snapshot();
}

export const statuspageAtomPlatform: Platform = {
  name: "statuspage-atom",
  description: "Atlassian Statuspage /history.atom: the 25 most recent incidents and maintenances",
  profile: PLATFORM_PROFILES["statuspage-atom"],
  parserVersion: 1,
  parse: parseStatuspageFeed,
};

export const statuspageRssPlatform: Platform = {
  name: "statuspage-rss",
  description: "Atlassian Statuspage /history.rss: the 25 most recent incidents and maintenances",
  profile: PLATFORM_PROFILES["statuspage-rss"],
  parserVersion: 1,
  parse: parseStatuspageFeed,
};

/**
 * history.atom read when a page's JSON API is switched off. It states what the feed states: for
 * incidents the JSON API already described, derivation keeps the JSON's finer values.
 */
export const statuspageAtomFallbackPlatform: Platform = {
  ...statuspageAtomPlatform,
  name: "statuspage-atom-fallback",
  profile: PLATFORM_PROFILES["statuspage-atom-fallback"],
  description: "Atlassian Statuspage /history.atom polled while the JSON API is unavailable",
};
