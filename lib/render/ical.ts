/**
 * A small iCalendar (RFC 5545) writer for published calendars: TEXT escaping, 75-octet folding
 * and CRLF line ends. Written here rather than with ical-generator, whose current major needs Node 22.
 */
import { toPlainWords } from "@/lib/plain-words";

export type CalendarEventStatus = "CONFIRMED" | "TENTATIVE" | "CANCELLED";

export interface CalendarEvent {
  uid: string;
  /** ISO-8601 UTC instants. */
  start: string;
  end: string | null;
  stamp: string;
  lastModified: string;
  sequence: number;
  status: CalendarEventStatus;
  summary: string;
  description: string;
  url: string;
}

export interface Calendar {
  name: string;
  description: string;
  events: readonly CalendarEvent[];
}

export const ICAL_CONTENT_TYPE = "text/calendar; charset=utf-8";
const PRODUCT = "-//Redline//Maintenance calendar//EN";
const MAX_LINE_OCTETS = 75;

/** A TEXT value: backslash, semicolon, comma and line breaks escaped (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return withoutControls(value)
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n?|\n/g, "\\n");
}

/** Control characters other than line breaks are not allowed in a TEXT value. */
function withoutControls(value: string): string {
  let kept = "";
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === "\n" || char === "\r" || char === "\t" || (code >= 0x20 && code !== 0x7f)) kept += char;
  }
  return kept;
}

/** Vendor text as a TEXT value: plain words (calendar clients render descriptions as HTML), escaped. */
function textValue(value: string): string {
  return escapeText(toPlainWords(value));
}

/** A URI value is not TEXT: it is written as is, so only an absolute http(s) address (the caller encodes it) is written at all. */
function uriLines(name: string, value: string): string[] {
  if (!/^https?:\/\//i.test(value) || /[\s"<>]/.test(value) || !URL.canParse(value)) return [];
  return [`${name}:${value}`];
}

/** An instant as a UTC DATE-TIME: 2026-03-01T10:00:00.000Z → 20260301T100000Z. */
export function formatUtc(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${JSON.stringify(iso)}`);
  return date.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

/** One content line folded into lines of at most 75 octets, never inside a UTF-8 character. */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line, "utf8") <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, "utf8");
    // Continuation lines start with a space, which counts against their 75.
    const limit = parts.length === 0 ? MAX_LINE_OCTETS : MAX_LINE_OCTETS - 1;
    if (octets + size > limit) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += char;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

function eventLines(event: CalendarEvent): string[] {
  return [
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${formatUtc(event.stamp)}`,
    `DTSTART:${formatUtc(event.start)}`,
    ...(event.end === null ? [] : [`DTEND:${formatUtc(event.end)}`]),
    `LAST-MODIFIED:${formatUtc(event.lastModified)}`,
    `SEQUENCE:${event.sequence}`,
    `STATUS:${event.status}`,
    `SUMMARY:${textValue(event.summary)}`,
    `DESCRIPTION:${textValue(event.description)}`,
    ...uriLines("URL", event.url),
    "END:VEVENT",
  ];
}

/** The whole calendar as an iCalendar object: CRLF line ends, every line folded. */
export function renderCalendar(calendar: Calendar): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:${PRODUCT}`,
    "CALSCALE:GREGORIAN",
    `NAME:${textValue(calendar.name)}`,
    `X-WR-CALNAME:${textValue(calendar.name)}`,
    `DESCRIPTION:${textValue(calendar.description)}`,
    `X-WR-CALDESC:${textValue(calendar.description)}`,
    ...calendar.events.flatMap(eventLines),
    "END:VCALENDAR",
  ];
  return `${lines.map(foldLine).join("\r\n")}\r\n`;
}
