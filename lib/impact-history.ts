import { formatDuration, formatUtcMinute, msBetween } from "@/lib/format";
import { type Impact, rankImpact } from "@/lib/incident";

/** One archived version's impact, when Redline observed it. */
export interface VersionImpact {
  observedAt: string;
  impact: string | null;
}

/** A stretch during which the incident showed one impact: from the version that set it to the next change or the end. */
export interface ImpactStep {
  impact: Impact | null;
  since: string;
  until: string;
}

const KNOWN = new Set<string>(["none", "minor", "major", "critical", "maintenance"]);

function asImpact(value: string | null): Impact | null {
  return value !== null && KNOWN.has(value) ? (value as Impact) : null;
}

/**
 * The impacts the incident showed, in order, consecutive equal ones merged. `end` closes the last
 * step: the resolution, or now while the incident is open (never before the step began).
 */
export function impactSteps(versions: readonly VersionImpact[], end: string): ImpactStep[] {
  const steps: ImpactStep[] = [];
  for (const v of versions) {
    const impact = asImpact(v.impact);
    const last = steps[steps.length - 1];
    if (last && last.impact === impact) continue;
    if (last) last.until = v.observedAt;
    steps.push({ impact, since: v.observedAt, until: v.observedAt });
  }
  const last = steps[steps.length - 1];
  if (last) last.until = Date.parse(end) > Date.parse(last.since) ? end : last.since;
  return steps;
}

const GONE_KINDS: ReadonlySet<string> = new Set(["incident-left-feed", "incident-deleted"]);

/**
 * Where the incident's last impact lasted until: its resolution; else, for one no longer listed,
 * the version that recorded it leaving the feed or deleted (nothing after it was observed); else
 * `openUntil`, the time up to which it is known to be open (now, or its feed's last capture).
 */
export function impactEndOf(
  incident: { resolvedAt: string | null },
  presence: string,
  versions: readonly { observedAt: string; kinds: readonly string[] }[],
  openUntil: string,
): string {
  if (incident.resolvedAt !== null) return incident.resolvedAt;
  if (presence === "listed") return openUntil;
  const gone = versions.findLast((v) => v.kinds.some((k) => GONE_KINDS.has(k))) ?? versions[versions.length - 1];
  return gone?.observedAt ?? openUntil;
}

function label(impact: Impact | null): string {
  return impact ?? "not stated";
}

function span(step: ImpactStep): string {
  return formatDuration(msBetween(step.since, step.until));
}

/** Minute precision, without the date when the step starts on the same UTC day as the first. */
function at(iso: string, firstDay: string): string {
  return iso.slice(0, 10) === firstDay ? `${iso.slice(11, 16)} UTC` : formatUtcMinute(iso);
}

/**
 * The header's account of how the impact moved, or null when it never changed:
 * "was major for 21 h until 2026-03-02 14:02 UTC" when the current impact is below its peak,
 * else the path to it: "minor → critical at 17:37 UTC, for 4 h".
 */
export function describeImpactHistory(steps: readonly ImpactStep[]): string | null {
  const current = steps[steps.length - 1];
  const first = steps[0];
  if (!current || !first || steps.length < 2) return null;
  const firstDay = first.since.slice(0, 10);
  const path = steps.map((s, i) => (i === 0 ? label(s.impact) : `${label(s.impact)} at ${at(s.since, firstDay)}`)).join(" → ");
  const peak = steps.reduce<ImpactStep | null>((best, s) => {
    const rank = rankImpact(s.impact);
    if (rank === null) return best;
    const bestRank = best ? rankImpact(best.impact) : null;
    return bestRank === null || rank > bestRank ? s : best;
  }, null);
  const currentRank = rankImpact(current.impact) ?? -1;
  const peakRank = peak ? rankImpact(peak.impact) : null;
  if (peak && peakRank !== null && peakRank > currentRank) {
    const lowered = `was ${label(peak.impact)} for ${span(peak)} until ${at(peak.until, firstDay)}`;
    return steps.length > 2 ? `${lowered} (${path})` : lowered;
  }
  return `${path}, for ${span(current)}`;
}
