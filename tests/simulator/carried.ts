import { canonicalizeIncident } from "@/lib/canonicalize";
import type { IncidentField } from "@/lib/carried-fields";
import type { Incident } from "@/lib/incident";

/** The incident reduced to its id and the fields a format states, canonical. */
export function carried(incident: Incident, fields: readonly IncidentField[] | undefined): Partial<Incident> {
  const canonical = canonicalizeIncident(incident);
  if (!fields) return canonical;
  return Object.fromEntries([["id", canonical.id], ...fields.map((f) => [f, canonical[f]])]);
}

export const byId = (a: Partial<Incident>, b: Partial<Incident>): number => ((a.id ?? "") < (b.id ?? "") ? -1 : 1);
