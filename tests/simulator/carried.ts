import { canonicalizeIncident } from "@/lib/canonicalize";
import { STATED_FIELDS, statesEveryField } from "@/lib/derive/source-profile";
import type { Incident } from "@/lib/incident";
import type { Platform } from "@/scrapers/platforms/platform";

type IncidentField = Exclude<keyof Incident, "vendor" | "id">;

/** The fields a format states (undefined: all of them). */
export function statedKeys(platform: Platform): IncidentField[] | undefined {
  const { profile } = platform;
  if (statesEveryField(profile)) return undefined;
  const fields: IncidentField[] = STATED_FIELDS.filter((f) => profile.fields[f] !== undefined);
  return profile.updates ? [...fields, "updates"] : fields;
}

/** The incident reduced to its id and the fields a format states, canonical. */
export function carried(incident: Incident, fields: readonly IncidentField[] | undefined): Partial<Incident> {
  const canonical = canonicalizeIncident(incident);
  if (!fields) return canonical;
  return Object.fromEntries([["id", canonical.id], ...fields.map((f) => [f, canonical[f]])]);
}

export const byId = (a: Partial<Incident>, b: Partial<Incident>): number => ((a.id ?? "") < (b.id ?? "") ? -1 : 1);
