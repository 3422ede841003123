import { z } from "zod";
import { CHANGE_KIND_INFO, CHANGE_KIND_NAMES, type ChangeKindName } from "@/lib/change-kinds";
import { QUIET_DEGRADATION_DESCRIPTION, QUIET_DEGRADATION_KIND, QUIET_DEGRADATION_LABEL } from "@/lib/components/quiet-degradation";

/**
 * What a feed entry or a notification can be: a change (a version of an incident, of one or more
 * change kinds) or a quiet degradation, which is no version of any incident. Readers pick among
 * both by one kind name (`/kinds/<kind>/feed.atom`, `--kind`); only change kinds are stored per
 * version (version_kinds) and filter the change lists (docs/decisions/0051-quiet-degradations-as-entries.md).
 */
export type EntryKindName = ChangeKindName | typeof QUIET_DEGRADATION_KIND;

export const ENTRY_KIND_NAMES: readonly EntryKindName[] = [...CHANGE_KIND_NAMES, QUIET_DEGRADATION_KIND];

export const entryKindNameSchema = z.enum(ENTRY_KIND_NAMES as [EntryKindName, ...EntryKindName[]], {
  error: (issue) => `unknown kind ${JSON.stringify(String(issue.input).slice(0, 40))}`,
});

export function isChangeKind(kind: EntryKindName): kind is ChangeKindName {
  return kind !== QUIET_DEGRADATION_KIND;
}

export function entryKindLabel(kind: EntryKindName): string {
  return isChangeKind(kind) ? CHANGE_KIND_INFO[kind].label : QUIET_DEGRADATION_LABEL;
}

export function entryKindDescription(kind: EntryKindName): string {
  return isChangeKind(kind) ? CHANGE_KIND_INFO[kind].description : QUIET_DEGRADATION_DESCRIPTION;
}

/**
 * Which entries a set of picked kinds selects: none picked is everything; otherwise the change
 * kinds among them (null: no change at all) and whether quiet degradations are in.
 */
export function splitEntryKinds(kinds: readonly EntryKindName[] | undefined): { changeKinds: ChangeKindName[] | undefined | null; quiet: boolean } {
  if (!kinds || kinds.length === 0) return { changeKinds: undefined, quiet: true };
  const changeKinds = kinds.filter(isChangeKind);
  return { changeKinds: changeKinds.length > 0 ? changeKinds : null, quiet: kinds.includes(QUIET_DEGRADATION_KIND) };
}
