import type { Incident } from "@/lib/incident";
import type { StatedField, Statement } from "@/lib/derive/source-profile";

/** Something in a snapshot that could not be read: where in the payload, and what was wrong. */
export interface ReadWarning {
  path: string;
  message: string;
}

/**
 * One incident as one snapshot shows it. Fields in `unstated` say nothing this time (the format
 * does not carry them for this incident, or they could not be read) and leave the record as it was.
 */
export interface Observation {
  incident: Incident;
  /** Where in the payload the incident is ("incidents[3]", "items[0]"), for warnings and tests. */
  path: string;
  unstated: ReadonlyArray<StatedField | "updates">;
  /** How this snapshot states a field when it differs from the source's profile (a shortlink for a page URL). */
  statements?: Partial<Record<StatedField, Statement>>;
  /** Some updates could not be read and were left out: the list says nothing of what is missing. */
  partialUpdates: boolean;
}

/** An incident listed by the snapshot that could not be read at all; `id` when at least that was readable. */
export interface UnreadIncident {
  id: string | null;
  path: string;
}

/** A snapshot read into incidents, tolerating what one bad element spoils. */
export interface ParsedSnapshot {
  observations: Observation[];
  unread: UnreadIncident[];
  warnings: ReadWarning[];
}

/** A snapshot whose incidents were all read whole. */
export function wholeSnapshot(incidents: readonly Incident[], unstated: ReadonlyArray<StatedField | "updates"> = []): ParsedSnapshot {
  return { observations: incidents.map((incident, i) => ({ incident, path: `[${i}]`, unstated, partialUpdates: false })), unread: [], warnings: [] };
}
