import type { Change } from "@/lib/change";
import type { SourceProfile } from "@/lib/derive/source-profile";

/**
 * "Posted late": an incident or update first seen in a capture after a good capture of the same
 * source that did not show it, although the time it gives is before that earlier capture. It was
 * posted after that capture, so at least that long after the time it gives. The earlier capture is
 * the bound, not the time between the two. Pure: over the version history and the capture times.
 */

/**
 * Below this, a lateness says nothing: a status API is served through caches, so a capture may
 * show the page as it was a little before it was taken.
 */
export const POSTED_LATE_MIN_MS = 60_000;
const MINUTE_MS = 60_000;

/** A version with the capture that recorded it. */
export interface VersionSighting {
  seq: number;
  /** The platform of the capture's source, and when it was taken. */
  platform: string;
  observedAt: string;
  /** The same source's last good observation before this capture; null when this was its first. */
  previousGoodAt: string | null;
  changes: readonly Change[];
}

export interface PostedLate {
  /** The time the incident or update gives (its stated start; an update's displayed or creation time). */
  givenAt: string;
  /** The earlier capture of the same source that did not show it. */
  boundAt: string;
  /** The capture that first showed it, and its version. */
  firstSeenAt: string;
  seq: number;
  /** How long after the time it gives it was posted, at least. */
  atLeastMs: number;
}

export interface PostedLateFindings {
  incident: PostedLate | null;
  /** Updates posted late, by update id, in the order first seen. */
  updates: Array<PostedLate & { updateId: string }>;
}

type ProfileOf = (platform: string) => SourceProfile | null;

/** The latest instant a time stated at this precision may stand for: a time printed to the minute may be any second of it. */
function latestMeant(iso: string, precision: "exact" | "minute"): number {
  return Date.parse(iso) + (precision === "minute" ? MINUTE_MS - 1 : 0);
}

function lateness(version: VersionSighting, givenAt: string, precision: "exact" | "minute"): PostedLate | null {
  if (version.previousGoodAt === null) return null;
  const ms = Date.parse(version.previousGoodAt) - latestMeant(givenAt, precision);
  return ms >= POSTED_LATE_MIN_MS ? { givenAt, boundAt: version.previousGoodAt, firstSeenAt: version.observedAt, seq: version.seq, atLeastMs: ms } : null;
}

/**
 * What of an incident was posted late: the incident itself (its first version, when the source
 * lists incidents and states their start) and each update (the version that first showed it,
 * when the source lists every update of what it lists). A source listing one incident per
 * snapshot, or none before, says nothing of when anything was posted.
 */
export function findPostedLate(kind: "incident" | "maintenance", versions: readonly VersionSighting[], profileOf: ProfileOf): PostedLateFindings {
  const ordered = [...versions].sort((a, b) => a.seq - b.seq);
  const listing = (v: VersionSighting) => {
    const profile = profileOf(v.platform);
    return profile !== null && profile.createsIncidents && profile.presence.kind !== "single" ? profile : null;
  };
  let incident: PostedLate | null = null;
  const first = ordered[0];
  const firstProfile = first ? listing(first) : null;
  const startStatement = firstProfile?.fields.startedAt;
  if (first && kind === "incident" && (startStatement === "exact" || startStatement === "minute")) {
    const start = first.changes.find((c) => c.field === "startedAt");
    const startedAt = start && (start.after === null || typeof start.after === "string") ? start.after : null;
    if (startedAt) incident = lateness(first, startedAt, startStatement);
  }
  const seen = new Set<string>();
  const updates: PostedLateFindings["updates"] = [];
  for (const version of ordered) {
    const profile = listing(version);
    for (const change of version.changes) {
      if (change.field !== "update" || change.kind !== "added" || change.after === null || seen.has(change.updateId)) continue;
      seen.add(change.updateId);
      if (!profile?.updates || profile.updates.list !== "full") continue;
      const given = change.after.displayAt ?? change.after.createdAt;
      const late = given === null ? null : lateness(version, given, profile.updates.time);
      if (late) updates.push({ ...late, updateId: change.updateId });
    }
  }
  return { incident, updates };
}
