import type { Incident } from "@/lib/incident";

export type IncidentField = Exclude<keyof Incident, "vendor" | "id">;

/**
 * What a format states about an incident. A feed that does not carry a field (an Atom history
 * has no impact; an incident page only its postmortem) must not erase what another source said.
 */
export interface CarryRule {
  /** The fields this format states; the others are kept from the incident's last version. Absent: all. */
  carries?: readonly IncidentField[];
  /** False for formats that only add to incidents another source lists. Absent: true. */
  createsIncidents?: boolean;
}

/** The incident as a partial source sees it: its carried fields over the previous version. */
export function mergeCarried(previous: Incident, parsed: Incident, carries: readonly IncidentField[]): Incident {
  const merged: Incident = { ...previous };
  for (const field of carries) {
    // One assignment per key keeps each field's own type.
    Object.assign(merged, { [field]: parsed[field] });
  }
  return merged;
}
