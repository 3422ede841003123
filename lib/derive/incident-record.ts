import type { Absence } from "@/lib/derive/presence";
import type { StatedField, Statement } from "@/lib/derive/source-profile";
import type { Incident, IncidentState, IncidentUpdate, Presence } from "@/lib/incident";

/** How the merged value of one update's fields was stated; null status: no source stated one. */
export interface UpdateProvenance {
  time: Statement;
  text: Statement;
  status: Statement | null;
  createdAt: Statement | null;
}

/** An update as one source last stated it (`id` is the source's own: a vendor id or one derived from its time). */
export interface ViewUpdate extends IncidentUpdate {
  /** The identity Redline matched it to: the update's `id` in the merged incident. */
  mergedId: string;
}

export type StatedValues = { [F in StatedField]?: Incident[F] };

/** What one source last said of an incident: whether it lists it, and the values it stated. */
export interface SourceView {
  listed: boolean;
  /** How this source judged the incident when it stopped listing it. */
  absence: Absence | null;
  /** Content hash of the source's last observation of the incident: an unchanged one is skipped. */
  hash: string | null;
  fields: StatedValues;
  /** Null: this source never stated the incident's updates. */
  updates: ViewUpdate[] | null;
}

/**
 * Everything derivation knows of one incident: the merged incident every page shows, how each of
 * its values was stated, and what each source last said of it. Versions are the reportable steps
 * of this record; the record itself also changes silently (a finer statement of the same value).
 */
export interface IncidentRecord {
  incident: Incident;
  presence: Presence;
  provenance: { [F in StatedField]?: Statement };
  updateProvenance: Record<string, UpdateProvenance>;
  sources: Record<string, SourceView>;
  firstSeenAt: string;
  lastChangedAt: string;
  versionCount: number;
  postmortemAt: string | null;
  editsAfterResolution: number;
}

export function recordState(record: IncidentRecord): IncidentState {
  return { incident: record.incident, presence: record.presence };
}

export interface LegacyRow {
  source: string;
  firstSeenAt: string;
  lastChangedAt: string;
  versionCount: number;
  postmortemAt: string | null;
  editsAfterResolution: number;
}

/**
 * A record for an incident archived before records existed, from its last version: everything
 * stated exactly by the source that last listed it. A rebuild replaces it with the real one.
 */
export function recordFromLegacy(state: IncidentState, row: LegacyRow): IncidentRecord {
  const { incident } = state;
  const fields: StatedValues = {
    kind: incident.kind, title: incident.title, status: incident.status, impact: incident.impact, url: incident.url,
    startedAt: incident.startedAt, resolvedAt: incident.resolvedAt, scheduledFor: incident.scheduledFor,
    scheduledUntil: incident.scheduledUntil, components: incident.components, postmortem: incident.postmortem,
  };
  const provenance = Object.fromEntries(Object.keys(fields).map((f) => [f, "exact"])) as IncidentRecord["provenance"];
  return {
    incident,
    presence: state.presence,
    provenance,
    updateProvenance: Object.fromEntries(incident.updates.map((u) => [u.id, { time: "exact", text: "exact", status: "exact", createdAt: "exact" }])),
    sources: {
      [row.source]: {
        listed: state.presence === "listed",
        absence: state.presence === "listed" ? null : state.presence,
        hash: null,
        fields,
        updates: incident.updates.map((u) => ({ ...u, mergedId: u.id })),
      },
    },
    firstSeenAt: row.firstSeenAt,
    lastChangedAt: row.lastChangedAt,
    versionCount: row.versionCount,
    postmortemAt: row.postmortemAt,
    editsAfterResolution: row.editsAfterResolution,
  };
}
