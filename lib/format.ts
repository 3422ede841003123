/** Human formats shared by the summary, the exports and the pages. UTC only, never locale-dependent. */

/** "2026-09-22 20:07 UTC" */
export function formatUtcMinute(iso: string | null): string {
  if (iso === null) return "not present";
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** "42 min", "3 h 5 min", "2 days 4 h"; a negative span (an end before its start) keeps its minus sign. */
export function formatDuration(ms: number): string {
  const sign = Math.round(ms / 60_000) < 0 ? "−" : "";
  return `${sign}${formatUnsignedDuration(Math.abs(ms))}`;
}

function formatUnsignedDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours < 48) return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
  const days = Math.floor(hours / 24);
  const restHours = hours % 24;
  return restHours === 0 ? `${days} days` : `${days} days ${restHours} h`;
}

/** "13 days", "2 h" : a coarse span for "… later" phrases. */
export function formatSpan(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  if (minutes < 1) return "moments";
  if (minutes < 90) return minutes === 1 ? "1 minute" : `${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} hours`;
  const days = Math.round(hours / 24);
  return `${days} days`;
}

/**
 * "2 hours after", "4 days before": formatSpan with the side of the reference it falls on, so a
 * span that runs backwards (an update edited before the time it shows) never reads as "after".
 */
export function formatSignedSpan(ms: number, words: { after: string; before: string } = { after: "after", before: "before" }): string {
  return `${formatSpan(ms)} ${ms < 0 ? words.before : words.after}`;
}

export function msBetween(fromIso: string, toIso: string): number {
  return Date.parse(toIso) - Date.parse(fromIso);
}

/** "A, B and C", or "A, B, C and 4 more" past the limit. */
export function formatList(items: readonly string[], limit = 4): string {
  if (items.length === 0) return "";
  const shown = items.length > limit ? items.slice(0, limit - 1) : [...items];
  const extra = items.length - shown.length;
  if (extra > 0) return `${shown.join(", ")} and ${extra} more`;
  if (shown.length === 1) return shown[0] ?? "";
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

/** First line of a text, cut at a word boundary. */
export function excerpt(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * Whole sentences up to `max` characters and "…" after them; only a first sentence longer than
 * that is cut inside it, at a word boundary. A summary cut anywhere ends on "moved from … to…".
 */
export function excerptSentences(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  let end = 0;
  for (const m of line.matchAll(/[.!?…]["”)]*(?= )/g)) {
    const at = m.index + m[0].length;
    if (at > max - 2) break;
    end = at;
  }
  return end > 0 ? `${line.slice(0, end)} …` : excerpt(line, max);
}

/** "2025-04-01 08:31:47 UTC": second precision, for Before/After where seconds can be the change. */
export function formatUtcSecond(iso: string | null): string {
  if (iso === null) return "not present";
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** "3 days ago", "in 2 hours": coarse, for a reader's bearings next to the exact UTC time. */
export function formatRelative(iso: string, now: Date): string {
  const ms = now.getTime() - Date.parse(iso);
  const span = formatSpan(ms);
  if (span === "moments") return "just now";
  return ms >= 0 ? `${span} ago` : `in ${span}`;
}
