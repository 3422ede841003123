import type { ComponentGrid } from "@/lib/components/component-grid";
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
  /** The component grid, when the snapshot states one. */
  grid?: ComponentGrid;
}

/** A snapshot whose incidents were all read whole. */
export function wholeSnapshot(incidents: readonly Incident[], unstated: ReadonlyArray<StatedField | "updates"> = []): ParsedSnapshot {
  return { observations: incidents.map((incident, i) => ({ incident, path: `[${i}]`, unstated, partialUpdates: false })), unread: [], warnings: [] };
}

/** The longest incident id kept, in UTF-8 bytes: ids are keys (a vendor's are at most a few hundred), and an index entry is bounded. */
export const MAX_INCIDENT_ID_BYTES = 1_024;

/** The snapshot with each incident whose id is longer than any key can be read as unread, with a warning: the others are kept. */
export function withBoundedIds(snapshot: ParsedSnapshot): ParsedSnapshot {
  const tooLong = (o: Observation) => Buffer.byteLength(o.incident.id, "utf8") > MAX_INCIDENT_ID_BYTES;
  if (!snapshot.observations.some(tooLong)) return snapshot;
  const dropped = snapshot.observations.filter(tooLong);
  return {
    observations: snapshot.observations.filter((o) => !tooLong(o)),
    unread: [...snapshot.unread, ...dropped.map((o) => ({ id: null, path: o.path }))],
    warnings: [
      ...snapshot.warnings,
      ...dropped.map((o) => ({ path: `${o.path}.id`, message: `an id of ${Buffer.byteLength(o.incident.id, "utf8")} bytes, longer than ${MAX_INCIDENT_ID_BYTES}: the incident is left out` })),
    ],
  };
}
