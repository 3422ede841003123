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

/** What derivation knows of one source of a vendor at the time of a capture. */
export interface SourceStanding {
  source: string;
  presence: PresenceRule;
  /** When it last served content (a read snapshot or an unchanged one), before this capture; null: never. */
  lastLiveAt: string | null;
  /** The oldest recency its last read snapshot listed: incidents newer than that belong in its list. */
  windowStart: string | null;
}

/**
 * A source that served nothing for this long no longer vouches for what it last listed: its
 * endpoint was dropped (a fallback feed after the API came back) or has been failing for days.
 */
export const STALE_SOURCE_MS = 7 * 86_400_000;

export function isLive(standing: SourceStanding, at: string): boolean {
  return standing.lastLiveAt !== null && Date.parse(at) - Date.parse(standing.lastLiveAt) <= STALE_SOURCE_MS;
}

/**
 * Whether deriving a capture reads another source's standing: when the source lists recent or all
 * incidents (it may owe any incident a listing: `awaits`), or lists one of the incidents derived
 * (`named`: is it still live, so still a lister?). The standing of any other source is never read,
 * so it is not loaded: a vendor polled through one address per incident has as many sources as
 * incidents, and loading them all made each capture's cost grow with the vendor's history.
 */
export function needsStanding(rule: PresenceRule, source: string, named: ReadonlySet<string>): boolean {
  return rule.kind === "recent" || rule.kind === "full" || named.has(source);
}

/**
 * Whether a source that lists recent incidents (or all of them) has not looked since the incident
 * appeared but should list it when it does: until then the incident has not left "the feed".
 */
export function awaits(standing: SourceStanding, incident: { firstSeenAt: string; incident: Incident }, at: string): boolean {
  const rule = standing.presence;
  if ((rule.kind !== "recent" && rule.kind !== "full") || !isLive(standing, at) || standing.lastLiveAt === null) return false;
  if (standing.lastLiveAt >= incident.firstSeenAt) return false;
  if (rule.kind === "full") return true;
  const recency = recencyOf(incident.incident, rule);
  return recency !== null && standing.windowStart !== null && recency >= standing.windowStart;
}

/** The oldest recency a snapshot lists, for sources whose list is a window of recent incidents. */
export function windowStartOf(rule: PresenceRule, incidents: readonly Incident[]): string | null {
  if (rule.kind !== "recent") return null;
  let oldest: string | null = null;
  for (const incident of incidents) {
    const t = recencyOf(incident, rule);
    if (t !== null && (oldest === null || t < oldest)) oldest = t;
  }
  return oldest;
}
