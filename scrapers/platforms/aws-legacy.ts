/**
 * AWS Service Health Dashboard `data.json` (https://status.aws.amazon.com/data.json), retired in 2023.
 * Never formally documented; the shape is the one the dashboard page read (https://status.aws.amazon.com/):
 * `{current[], archive[]}` events keyed by service and start epoch, with an HTML timeline in
 * `description` whose times carry a zone label but, unless the day changed, no date. Each event is
 * read field by field: a malformed field or timeline entry costs only itself.
 */
import { Parser } from "htmlparser2";
import { z } from "zod";
import type { StatedField } from "@/lib/derive/source-profile";
import { htmlToText } from "@/lib/html-to-text";
import type { Incident, IncidentUpdate } from "@/lib/incident";
import { PLATFORM_PROFILES } from "@/lib/platform-profiles";
import { epochSecondsToUtc, formatUtc, TimestampError, zoneAbbreviationOffset } from "@/lib/time";
import { deriveUpdateIds } from "@/lib/update-identity";
import { decodeJson, parseWithSchema, type ParseContext, type Platform } from "@/scrapers/platforms/platform";
import { joinPath, type ReadObject, SnapshotReader } from "@/scrapers/platforms/snapshot-reader";

const DASHBOARD_URL = "https://status.aws.amazon.com/";
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** A timeline time as printed: "9:26 AM PST", or "Dec 8, 12:03 AM PST" once the day changed. */
interface LocalClock {
  month: number | null;
  day: number | null;
  minutes: number;
  offsetMinutes: number;
}
/** A top-level chunk of the description: its leading time, what is wrong with that time, or null when it has none. */
interface TimelineEntry {
  clock: LocalClock | string | null;
  html: string;
}

const CLOCK_PATTERN = /^(?:([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+)?(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+(\S+)$/i;
const TIME_SPAN = /^\s*<span\b[^>]*\byellowfg\b[^>]*>([\s\S]*?)<\/span\s*>/i;

function readClock(label: string): LocalClock | string {
  const m = CLOCK_PATTERN.exec(label.trim());
  if (!m) return `unreadable time ${JSON.stringify(label.slice(0, 40))}`;
  const [, monthName, day, hour = "", minute = "", half = "", zone = ""] = m;
  const offsetMinutes = zoneAbbreviationOffset(zone);
  if (offsetMinutes === null) return `unknown time zone ${JSON.stringify(zone)}`;
  const month = monthName === undefined ? null : MONTHS.indexOf(monthName.toLowerCase()) + 1;
  if (month === 0 || Number(hour) < 1 || Number(hour) > 12 || Number(minute) > 59 || Number(day ?? 1) > 31) {
    return `impossible time ${JSON.stringify(label.slice(0, 40))}`;
  }
  const hours = (Number(hour) % 12) + (half.toLowerCase() === "p" ? 12 : 0);
  return { month, day: day === undefined ? null : Number(day), minutes: hours * 60 + Number(minute), offsetMinutes };
}

/** Top-level `<div>`s of the description, each with its leading time when it has one. */
function splitTimeline(html: string): TimelineEntry[] {
  const chunks: string[] = [];
  let depth = 0;
  let chunkStart = 0;
  let outsideStart = 0;
  const parser: Parser = new Parser({
    onopentag(name) {
      if (name !== "div" || ++depth > 1) return;
      chunks.push(html.slice(outsideStart, parser.startIndex));
      chunkStart = parser.endIndex + 1;
    },
    onclosetag(name, isImplied) {
      if (name !== "div" || depth === 0 || --depth > 0) return;
      const end = isImplied ? html.length : parser.startIndex;
      chunks.push(html.slice(chunkStart, end));
      outsideStart = isImplied ? html.length : parser.endIndex + 1;
    },
  });
  parser.write(html);
  parser.end();
  chunks.push(html.slice(outsideStart));
  return chunks.flatMap((chunk): TimelineEntry[] => {
    const span = TIME_SPAN.exec(chunk);
    if (span) return [{ clock: readClock(htmlToText(span[1] ?? "")), html: chunk.slice(span[0].length) }];
    return htmlToText(chunk) === "" ? [] : [{ clock: null, html: chunk }];
  });
}

const STATUS_NAMES = { "0": "resolved", "1": "informational", "2": "degraded", "3": "disrupted" } as const;

// Multilingual regions mark every " | "-separated translation; the mark is status, not title.
const RESOLVED_MARK = /(^\s*|[|｜]\s*)\[(?:RESOLVED|解決済み|已解決|已解决)\]\s*/giu;

export function splitResolvedMark(summary: string): { title: string; resolved: boolean } {
  const title = summary.replace(RESOLVED_MARK, "$1").trim();
  return { title, resolved: title !== summary.trim() };
}

function nearestDate(month: number, day: number, near: number): number {
  const year = new Date(near).getUTCFullYear();
  const candidates = [year - 1, year, year + 1].map((y) => Date.UTC(y, month - 1, day));
  return candidates.reduce((best, c) => (Math.abs(c - near) < Math.abs(best - near) ? c : best));
}

/** UTC instants of the timeline: a bare time is on the current local day, rolling over when time runs backwards. */
function resolveTimeline(clocks: readonly LocalClock[], startedAt: string): number[] {
  const startedMs = Date.parse(startedAt);
  let localDay: number | null = null;
  let previous: number | null = null;
  return clocks.map((clock) => {
    const offsetMs = clock.offsetMinutes * MINUTE_MS;
    localDay ??= Math.floor((startedMs + offsetMs) / DAY_MS) * DAY_MS;
    if (clock.month !== null && clock.day !== null) localDay = nearestDate(clock.month, clock.day, localDay);
    let at = localDay + clock.minutes * MINUTE_MS - offsetMs;
    if (clock.month === null && previous !== null && at < previous) {
      localDay += DAY_MS;
      at += DAY_MS;
    }
    previous = at;
    return at;
  });
}

interface TimedGroup {
  clock: LocalClock | string;
  /** Its place in the timeline, for warnings. */
  index: number;
  bodies: string[];
}

interface ReadTimeline {
  updates: IncidentUpdate[];
  /** Timed entries that could not be read: the list, and what is worked out from it, are incomplete. */
  skipped: number;
}

/** The event's updates: one per timed entry, or the whole description at the start when nothing in it is timed. */
function readTimeline(reader: SnapshotReader, description: string, startedAt: string, path: string): ReadTimeline {
  const entries = splitTimeline(description);
  if (entries.every((e) => e.clock === null)) {
    const body = htmlToText(description);
    if (body === "") return { updates: [], skipped: 0 };
    const [id = startedAt] = deriveUpdateIds([startedAt]);
    return { updates: [{ id, status: null, body, createdAt: startedAt, displayAt: startedAt }], skipped: 0 };
  }
  // Undated divs belong to the timed update before them (or, leading, to the first one).
  const groups: TimedGroup[] = [];
  const leading: string[] = [];
  entries.forEach((entry, index) => {
    const text = htmlToText(entry.html);
    if (entry.clock === null) (groups.at(-1)?.bodies ?? leading).push(text);
    else groups.push({ clock: entry.clock, index, bodies: groups.length === 0 ? [...leading, text] : [text] });
  });
  const kept: Array<{ clock: LocalClock; index: number; body: string }> = [];
  let skipped = 0;
  // A bare time is dated from the one before it: after an unreadable time, only a dated one is placed.
  let dayUnknown = false;
  for (const { clock, index, bodies } of groups) {
    if (typeof clock === "string" || (dayUnknown && clock.month === null)) {
      skipped += 1;
      dayUnknown = true;
      reader.warn(joinPath(path, "timeline", index), typeof clock === "string" ? clock : "bare time after an unreadable one: its day is not known");
      continue;
    }
    dayUnknown = false;
    kept.push({ clock, index, body: bodies.filter((b) => b !== "").join("\n\n") });
  }
  const dated: Array<{ at: string; body: string }> = [];
  resolveTimeline(kept.map((k) => k.clock), startedAt).forEach((ms, i) => {
    const entry = kept[i];
    if (!entry) return;
    try {
      dated.push({ at: formatUtc(ms), body: entry.body });
    } catch (error) {
      if (!(error instanceof TimestampError)) throw error;
      skipped += 1;
      reader.warn(joinPath(path, "timeline", entry.index), error.message);
    }
  });
  const ids = deriveUpdateIds(dated.map((d) => d.at));
  const updates = dated.map(({ at, body }, i) => ({ id: ids[i] ?? at, status: null, body, createdAt: at, displayAt: at }));
  return { updates, skipped };
}

const epochSchema = z.union([z.string().trim().regex(/^\d+$/, "expected epoch seconds"), z.number().int().nonnegative()]);

const eventShape = {
  service_name: z.string().min(1),
  service: z.string().nullish(),
  summary: z.string(),
  date: epochSchema.transform(String),
  status: z.union([z.string().trim(), z.number()]).transform(String).pipe(z.enum(["0", "1", "2", "3"])),
  description: z.string().nullish(),
};

/** The event's service key; null when it cannot be read, since one made up from the name would be another event's id. */
function serviceKey(read: ReadObject<typeof eventShape>): string | null {
  if (read.failed.has("service")) return null;
  const key = read.values.service?.trim();
  if (key) return key;
  const name = read.values.service_name;
  if (name === undefined) return null;
  const slug = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  return slug || name;
}

function readStart(reader: SnapshotReader, date: string, path: string): string | null {
  try {
    return epochSecondsToUtc(date);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    reader.warn(path, error.message);
    return null;
  }
}

/**
 * One event as an observation. A field that cannot be read is not stated, and neither is what is
 * worked out from it: the status from the summary's resolved mark and the status code, the
 * timeline's times from the start.
 */
function readAwsEvent(reader: SnapshotReader, raw: unknown, path: string, listed: Set<string>, ctx: ParseContext): void {
  const read = reader.fields(eventShape, raw, path);
  const date = read?.values.date;
  const service = read ? serviceKey(read) : null;
  if (!read || date === undefined || service === null) {
    // The reader has already said what was wrong at this path.
    reader.unreadIncident(null, path);
    return;
  }
  const id = `${date}-${service}`;
  if (listed.has(id)) return;
  listed.add(id);
  const { values: v, failed } = read;
  const unstated = new Set<StatedField | "updates">();
  const startedAt = readStart(reader, date, joinPath(path, "date"));
  if (startedAt === null) unstated.add("startedAt");
  const summary = v.summary === undefined ? null : splitResolvedMark(v.summary);
  if (summary === null) unstated.add("title");
  if (summary === null || (!summary.resolved && v.status === undefined)) unstated.add("status");
  const name = v.service_name;
  if (name === undefined) unstated.add("components");
  const timeline = startedAt === null || failed.has("description") ? null : readTimeline(reader, v.description ?? "", startedAt, joinPath(path, "description"));
  if (timeline === null) unstated.add("updates");
  const incident: Incident = {
    vendor: ctx.vendor,
    id,
    kind: "incident",
    title: summary?.title ?? "",
    status: summary?.resolved ? "resolved" : v.status === undefined ? null : STATUS_NAMES[v.status],
    // The feed states current service health, not an incident impact.
    impact: null,
    url: DASHBOARD_URL,
    startedAt,
    // No end time is published: the last update's time would move whenever AWS appends a
    // post-event note, and Redline would report a timing change the vendor never made.
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: name === undefined ? [] : [{ id: service, name }],
    updates: timeline?.updates ?? [],
    postmortem: null,
  };
  reader.observe({ incident, path, unstated: [...unstated], partialUpdates: (timeline?.skipped ?? 0) > 0 });
}

const dataSchema = z.object({
  current: z.array(z.unknown()).nullish(),
  archive: z.array(z.unknown()).nullish(),
});

export const awsLegacyPlatform: Platform = {
  name: "aws-legacy",
  description: "AWS Service Health Dashboard data.json (retired 2023): current and archived events",
  profile: PLATFORM_PROFILES["aws-legacy"],
  parserVersion: 2,
  async parse(body, context) {
    const data = parseWithSchema(dataSchema, decodeJson(body, context), context);
    const reader = new SnapshotReader(context);
    // The first listing of an id wins: an event in `current` and again in `archive` is read from `current`.
    const listed = new Set<string>();
    for (const key of ["current", "archive"] as const) {
      (data[key] ?? []).forEach((raw, i) => readAwsEvent(reader, raw, joinPath(key, i), listed, context));
    }
    return reader.snapshot();
  },
};
