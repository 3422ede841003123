/** Timestamp parsing: every vendor time becomes ISO-8601 UTC with milliseconds. */

export class TimestampError extends Error {
  readonly kind = "timestamp";
}

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z. */
const MIN_DAY_MS = -62_167_219_200_000;
const MAX_DAY_MS = 253_402_300_800_000;

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|UTC|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parse an ISO-8601-like timestamp and return it in UTC with milliseconds.
 * A timestamp without an offset is refused unless the caller says which offset the vendor meant.
 */
export function toUtcIso(value: string, options: { assumeOffsetMinutes?: number } = {}): string {
  const match = ISO_PATTERN.exec(value.trim());
  if (!match) throw new TimestampError(`not an ISO-8601 timestamp: ${JSON.stringify(value.slice(0, 64))}`);
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = match;
  let offsetMinutes: number;
  if (zone === undefined) {
    if (options.assumeOffsetMinutes === undefined) {
      throw new TimestampError(`timestamp has no UTC offset: ${JSON.stringify(value.slice(0, 64))}`);
    }
    offsetMinutes = options.assumeOffsetMinutes;
  } else {
    offsetMinutes = parseOffset(zone);
  }
  const ms = Number((frac + "000").slice(0, 3));
  const parts = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)] as const;
  const utc = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], ms) - offsetMinutes * 60_000;
  const check = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5]));
  if (
    check.getUTCMonth() !== parts[1] - 1 ||
    check.getUTCDate() !== parts[2] ||
    parts[3] > 23 ||
    parts[4] > 59 ||
    parts[5] > 60
  ) {
    throw new TimestampError(`impossible date or time: ${JSON.stringify(value.slice(0, 64))}`);
  }
  return formatUtc(utc);
}

function parseOffset(zone: string): number {
  if (zone === "Z" || zone === "z" || zone === "UTC") return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 18 || minutes > 59) throw new TimestampError(`impossible UTC offset: ${zone}`);
  return sign * (hours * 60 + minutes);
}

/** Like toUtcIso, but null and empty strings stay null. */
export function toUtcIsoOrNull(value: string | null | undefined, options?: { assumeOffsetMinutes?: number }): string | null {
  if (value === null || value === undefined || value.trim() === "") return null;
  return toUtcIso(value, options);
}

export function formatUtc(epochMs: number): string {
  if (!Number.isFinite(epochMs)) throw new TimestampError(`not a finite time: ${epochMs}`);
  const date = new Date(epochMs);
  // Past year 9999 toISOString writes "+010000-…", which is not the stored form.
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) {
    throw new TimestampError(`time out of range: ${epochMs}`);
  }
  return date.toISOString();
}

/**
 * The UTC day (YYYY-MM-DD) holding `epochMs`, worked out from the day number (Hinnant's
 * days-to-civil) rather than through a Date: pages write a day for each of 90 to 365 cells, and
 * under Next every Date made goes through its patched constructor. Years 0 to 9999 only.
 */
export function utcDayOf(epochMs: number): string {
  if (!Number.isFinite(epochMs) || epochMs < MIN_DAY_MS || epochMs >= MAX_DAY_MS) throw new TimestampError(`time out of range: ${epochMs}`);
  const z = Math.floor(epochMs / DAY_MS) + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${month < 10 ? "0" : ""}${month}-${day < 10 ? "0" : ""}${day}`;
}

export function epochSecondsToUtc(seconds: number | string): string {
  const n = typeof seconds === "string" ? Number(seconds.trim()) : seconds;
  if (typeof seconds === "string" && !/^\d+(\.\d+)?$/.test(seconds.trim())) {
    throw new TimestampError(`not epoch seconds: ${JSON.stringify(seconds.slice(0, 32))}`);
  }
  return formatUtc(Math.round(n * 1000));
}

/**
 * UTC offsets of the zone abbreviations status pages print next to local times.
 * Abbreviations are ambiguous in general (IST, CST); these are the readings status pages use.
 */
const ZONE_ABBREVIATIONS: Record<string, number> = {
  UTC: 0, GMT: 0, Z: 0, WET: 0, WEST: 60, BST: 60, IST: 330, CET: 60, CEST: 120, EET: 120, EEST: 180,
  MSK: 180, GST: 240, PKT: 300, SGT: 480, HKT: 480, AWST: 480, JST: 540, KST: 540, ACST: 570, ACDT: 630,
  AEST: 600, AEDT: 660, NZST: 720, NZDT: 780, HST: -600, AKST: -540, AKDT: -480, PST: -480, PDT: -420,
  MST: -420, MDT: -360, CST: -360, CDT: -300, EST: -300, EDT: -240, AST: -240, ADT: -180, NST: -210,
  NDT: -150, BRT: -180, ART: -180,
};

/** Offset in minutes east of UTC for a zone abbreviation, or for "UTC+5:30"-style labels; null when unknown. */
export function zoneAbbreviationOffset(label: string): number | null {
  const trimmed = label.trim().toUpperCase();
  const known = ZONE_ABBREVIATIONS[trimmed];
  if (known !== undefined) return known;
  const explicit = /^(?:UTC|GMT)\s*([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(trimmed);
  if (!explicit) return null;
  const sign = explicit[1] === "-" ? -1 : 1;
  return sign * (Number(explicit[2]) * 60 + Number(explicit[3] ?? 0));
}

export function minutesBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000);
}
