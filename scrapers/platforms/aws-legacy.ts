/**
 * AWS Service Health Dashboard `data.json` (https://status.aws.amazon.com/data.json), retired in 2023.
 * Never formally documented; the shape is the one the dashboard page read (https://status.aws.amazon.com/):
 * `{current[], archive[]}` events keyed by service and start epoch, with an HTML timeline in
 * `description` whose times carry a zone label but, unless the day changed, no date.
 */
import { wholeSnapshot } from "@/lib/derive/observation";
import { EXACT_UPDATES, statingOnly } from "@/lib/derive/source-profile";
import { Parser } from "htmlparser2";
import { z } from "zod";
import { htmlToText } from "@/lib/html-to-text";
import { type Incident, type IncidentUpdate, keepFirstById } from "@/lib/incident";
import { epochSecondsToUtc, formatUtc, TimestampError, zoneAbbreviationOffset } from "@/lib/time";
import { deriveUpdateIds } from "@/lib/update-identity";
import { decodeJson, parseWithSchema, type ParseContext, type Platform, SnapshotError } from "@/scrapers/platforms/platform";

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
interface TimelineEntry {
  clock: LocalClock | null;
  html: string;
}

const CLOCK_PATTERN = /^(?:([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+)?(\d{1,2}):(\d{2})\s*([ap])\.?m\.?\s+(\S+)$/i;
const TIME_SPAN = /^\s*<span\b[^>]*\byellowfg\b[^>]*>([\s\S]*?)<\/span\s*>/i;

function parseClock(label: string): LocalClock {
  const m = CLOCK_PATTERN.exec(label.trim());
  if (!m) throw new TimestampError(`unreadable time ${JSON.stringify(label.slice(0, 40))}`);
  const [, monthName, day, hour = "", minute = "", half = "", zone = ""] = m;
  const offsetMinutes = zoneAbbreviationOffset(zone);
  if (offsetMinutes === null) throw new TimestampError(`unknown time zone ${JSON.stringify(zone)}`);
  const month = monthName === undefined ? null : MONTHS.indexOf(monthName.toLowerCase()) + 1;
  if (month === 0 || Number(hour) < 1 || Number(hour) > 12 || Number(minute) > 59 || Number(day ?? 1) > 31) {
    throw new TimestampError(`impossible time ${JSON.stringify(label.slice(0, 40))}`);
  }
  const hours = (Number(hour) % 12) + (half.toLowerCase() === "p" ? 12 : 0);
  return { month, day: day === undefined ? null : Number(day), minutes: hours * 60 + Number(minute), offsetMinutes };
}

/** Top-level `<div>`s of the description, each with its leading time when it has one. */
export function splitTimeline(html: string): TimelineEntry[] {
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
    if (span) return [{ clock: parseClock(htmlToText(span[1] ?? "")), html: chunk.slice(span[0].length) }];
    return htmlToText(chunk) === "" ? [] : [{ clock: null, html: chunk }];
  });
}

const epochSchema = z.union([z.string().trim().regex(/^\d+$/, "expected epoch seconds"), z.number().int().nonnegative()]);

export const awsEventSchema = z
  .object({
    service_name: z.string().min(1),
    service: z.string().nullish(),
    summary: z.string(),
    date: epochSchema.transform(String),
    status: z.union([z.string().trim(), z.number()]).transform(String).pipe(z.enum(["0", "1", "2", "3"])),
    description: z.string().nullish().transform((value) => value ?? ""),
  })
  .transform((event, ctx) => {
    let field = "date";
    try {
      const startedAt = epochSecondsToUtc(event.date);
      field = "description";
      return { ...event, startedAt, timeline: splitTimeline(event.description) };
    } catch (error) {
      if (!(error instanceof TimestampError)) throw error;
      ctx.addIssue({ code: "custom", message: error.message, path: [field] });
      return z.NEVER;
    }
  });
type AwsEvent = z.infer<typeof awsEventSchema>;

export const awsDataSchema = z.object({
  current: z.array(awsEventSchema).nullish(),
  archive: z.array(awsEventSchema).nullish(),
});

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
export function resolveTimeline(clocks: readonly LocalClock[], startedAt: string): number[] {
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

export function reshapeAwsTimeline(event: AwsEvent): IncidentUpdate[] {
  const timed = event.timeline.filter((e) => e.clock !== null);
  if (timed.length === 0) {
    const body = htmlToText(event.description);
    if (body === "") return [];
    const [id = event.startedAt] = deriveUpdateIds([event.startedAt]);
    return [{ id, status: null, body, createdAt: event.startedAt, displayAt: event.startedAt }];
  }
  // Undated divs belong to the timed update before them (or, leading, to the first one).
  const bodies: string[][] = timed.map(() => []);
  let index = 0;
  for (const entry of event.timeline) {
    if (entry.clock !== null && entry !== timed[0]) index += 1;
    bodies[index]?.push(htmlToText(entry.html));
  }
  const times = resolveTimeline(
    timed.flatMap((e) => (e.clock ? [e.clock] : [])),
    event.startedAt,
  ).map(formatUtc);
  const ids = deriveUpdateIds(times);
  return times.map((at, i) => ({
    id: ids[i] ?? at,
    status: null,
    body: (bodies[i] ?? []).filter((b) => b !== "").join("\n\n"),
    createdAt: at,
    displayAt: at,
  }));
}

function serviceKey(event: AwsEvent): string {
  const key = event.service?.trim();
  if (key) return key;
  const slug = event.service_name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "");
  return slug || event.service_name;
}

export function reshapeAwsEvent(event: AwsEvent, vendor: string): Incident {
  const service = serviceKey(event);
  const { title, resolved } = splitResolvedMark(event.summary);
  const status = resolved ? "resolved" : STATUS_NAMES[event.status];
  const updates = reshapeAwsTimeline(event);
  return {
    vendor,
    id: `${event.date}-${service}`,
    kind: "incident",
    title,
    status,
    // The feed states current service health, not an incident impact.
    impact: null,
    url: DASHBOARD_URL,
    startedAt: event.startedAt,
    // No end time is published: the last update's time would move whenever AWS appends a
    // post-event note, and Redline would report a timing change the vendor never made.
    resolvedAt: null,
    scheduledFor: null,
    scheduledUntil: null,
    components: [{ id: service, name: event.service_name }],
    updates,
    postmortem: null,
  };
}

/** The event as an incident; a timeline that runs past the last representable time fails at its path. */
function reshapeListedEvent(event: AwsEvent, path: string, context: ParseContext): Incident {
  try {
    return reshapeAwsEvent(event, context.vendor);
  } catch (error) {
    if (!(error instanceof TimestampError)) throw error;
    const message = `${context.vendor}: snapshot from ${context.source} is invalid at ${path}.description: ${error.message}`;
    throw new SnapshotError("schema", message, { cause: error });
  }
}

export function parseAwsData(body: Uint8Array, context: ParseContext): Incident[] {
  const raw = parseWithSchema(awsDataSchema, decodeJson(body, context), context);
  return keepFirstById([
    ...(raw.current ?? []).map((event, i) => reshapeListedEvent(event, `current[${i}]`, context)),
    ...(raw.archive ?? []).map((event, i) => reshapeListedEvent(event, `archive[${i}]`, context)),
  ]);
}

export const awsLegacyPlatform: Platform = {
  name: "aws-legacy",
  description: "AWS Service Health Dashboard data.json (retired 2023): current and archived events",
  // No impact and no end time are published (see reshapeAwsEvent).
  profile: statingOnly({ kind: "active" }, ["kind", "title", "status", "url", "startedAt", "scheduledFor", "scheduledUntil", "components", "postmortem"], EXACT_UPDATES),
  parserVersion: 1,
  async parse(body, context) {
    return wholeSnapshot(parseAwsData(body, context));
  },
};
