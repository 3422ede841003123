import type { Incident } from "@/lib/incident";

/**
 * What a feed lists, which decides what an incident missing from a later snapshot means.
 * - active: only unresolved incidents (Statuspage summary.json, Slack current): missing = left the feed.
 * - recent: the most recent incidents (incidents.json: 50, history.atom: 25, or an age window):
 *   missing while older incidents are still listed = deleted; otherwise it aged out. `by` names
 *   what the feed ages incidents by: their start (default) or their end (Google Cloud keeps a year by end).
 * - full: the whole history: missing = deleted.
 * - single: one incident per snapshot: absence of the others means nothing.
 */
export type PresenceRule =
  | { kind: "active" }
  | { kind: "recent"; limit: number | null; by?: "start" | "end" }
  | { kind: "full" }
  | { kind: "single" };

export type Absence = "left-feed" | "deleted";

/**
 * When this many listed incidents vanish at once, the feed changed (new ids, a partial page),
 * not the vendor's mind: nothing is called deleted.
 */
const MASS_VANISH_MIN = 5;
const MASS_VANISH_SHARE = 0.5;
/**
 * A most-recent list is not strictly ordered by start time (a long maintenance stays listed), so one
 * older incident still listed proves little; two or more mean the missing one did not age out.
 */
const OLDER_STILL_LISTED = 2;

/** The time a feed ages an incident by, as far as the normalized fields tell; null when unknown. */
export function recencyOf(incident: Incident, rule: PresenceRule = { kind: "active" }): string | null {
  if (rule.kind === "recent" && rule.by === "end") return incident.resolvedAt;
  if (incident.startedAt) return incident.startedAt;
  if (incident.scheduledFor) return incident.scheduledFor;
  let earliest: string | null = null;
  for (const u of incident.updates) {
    const t = u.displayAt ?? u.createdAt;
    if (t && (earliest === null || t < earliest)) earliest = t;
  }
  return earliest;
}

/**
 * Judge each incident the source listed before but not now. `stillListed` are the recency
 * times of what the snapshot lists; `previouslyListed` counts what the source listed before.
 */
export function judgeAbsences(
  rule: PresenceRule,
  missing: ReadonlyArray<{ key: string; recency: string | null }>,
  stillListed: ReadonlyArray<string | null>,
  previouslyListed: number,
): Map<string, Absence> {
  const verdicts = new Map<string, Absence>();
  if (rule.kind === "single") return verdicts;
  const listedTimes = stillListed.filter((t): t is string => t !== null);
  for (const m of missing) {
    let verdict: Absence = "left-feed";
    if (rule.kind === "full") verdict = "deleted";
    else if (rule.kind === "recent" && m.recency !== null) {
      const recency = m.recency;
      const older = listedTimes.filter((t) => t < recency).length;
      if (older >= OLDER_STILL_LISTED) verdict = "deleted";
    }
    verdicts.set(m.key, verdict);
  }
  const deleted = [...verdicts.values()].filter((v) => v === "deleted").length;
  if (deleted >= MASS_VANISH_MIN && deleted > previouslyListed * MASS_VANISH_SHARE) {
    for (const key of verdicts.keys()) verdicts.set(key, "left-feed");
  }
  return verdicts;
}
