/** The period a vendor's figures cover: pure, so the defaults are tested alone. */

const DAY_MS = 86_400_000;

export interface ReportPeriod {
  /** First and last day shown, YYYY-MM-DD, both included. */
  since: string;
  until: string;
  /** The same as instants for queries: [sinceAt, untilAt). */
  sinceAt: string;
  untilAt: string;
  /** Whether the period is the archived range (nothing asked). */
  wholeArchive: boolean;
}

function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The period asked for, each end missing taken from what the archive holds of the vendor (its
 * first incident or capture to its last observation), so an archive of 2021 shows 2021; with
 * nothing archived, the twelve months up to today.
 */
export function reportPeriod(asked: { since?: string; until?: string }, archived: { first: string | null; last: string | null }, now: Date): ReportPeriod {
  const today = dayOf(now.toISOString());
  let until = asked.until ?? (archived.last ? dayOf(archived.last) : today);
  const since = asked.since ?? (archived.first && dayOf(archived.first) <= until ? dayOf(archived.first) : addDays(until, -364));
  if (since > until) until = since;
  return { since, until, sinceAt: `${since}T00:00:00.000Z`, untilAt: `${addDays(until, 1)}T00:00:00.000Z`, wholeArchive: !asked.since && !asked.until };
}

/** The archive's extent from its first and last instants; null ends when it holds nothing. */
export function archivedRangeOf(instants: ReadonlyArray<string | null>): { first: string | null; last: string | null } {
  const known = instants.filter((i): i is string => i !== null && i !== "").sort();
  return { first: known[0] ?? null, last: known.at(-1) ?? null };
}

/** The instant a day given as "until" ends (exclusive): pages' date filters include their last day. */
export function untilInstantOf(day: string): string {
  return `${addDays(day, 1)}T00:00:00.000Z`;
}
