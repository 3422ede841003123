import type { ComponentState } from "@/lib/components/component-step";
import { formatDuration, formatList, formatUtcMinute, msBetween } from "@/lib/format";

/**
 * A quiet degradation as readers meet it: on the home page, in feeds, the API, exports and
 * notifications. Its components are stored as the vendor's keys; a reader gets their names and
 * groups as last listed (the component directory). Pure.
 */

/** Its kind name, beside the change kinds wherever readers pick kinds (feeds, subscriptions). */
export const QUIET_DEGRADATION_KIND = "quiet-degradation";
export const QUIET_DEGRADATION_LABEL = "Quiet degradation";
export const QUIET_DEGRADATION_DESCRIPTION =
  "Components were degraded or out while the vendor had no incident open: the status page showed it, but nobody wrote it up.";

/** A component as last listed: what names a key. */
export interface DirectoryEntry {
  key: string;
  name: string;
  /** The key of its group; null at the top level. */
  groupKey: string | null;
  isGroup: boolean;
}

/** A vendor's components by key. */
export type ComponentDirectory = ReadonlyMap<string, DirectoryEntry>;

/** One stored stretch, with its vendor. */
export interface StoredQuietDegradation {
  id: number;
  vendorId: number;
  vendorSlug: string;
  vendorName: string;
  from: string;
  until: string | null;
  /** The vendor's keys of the components degraded or out during it. */
  components: readonly string[];
}

export interface NamedComponent {
  id: string;
  name: string;
  /** Its group's name; null at the top level. */
  group: string | null;
}

/** A stretch with its components named. */
export interface QuietDegradationView {
  vendor: { slug: string; name: string };
  from: string;
  until: string | null;
  components: NamedComponent[];
}

/** The directory of the components' open runs: what names a stretch as it starts. */
export function directoryOf(states: Iterable<ComponentState>): ComponentDirectory {
  const out = new Map<string, DirectoryEntry>();
  for (const s of states) out.set(s.componentId, { key: s.componentId, name: s.name, groupKey: s.groupId, isGroup: s.isGroup });
  return out;
}

/** The name of a group key: its own component's name as last listed, else the key. */
export function groupName(directory: ComponentDirectory, groupKey: string | null): string | null {
  return groupKey === null ? null : (directory.get(groupKey)?.name ?? groupKey);
}

/** A key named as last listed; one never listed keeps its key as its name. */
export function nameComponent(directory: ComponentDirectory, key: string): NamedComponent {
  const entry = directory.get(key);
  return { id: key, name: entry?.name ?? key, group: groupName(directory, entry?.groupKey ?? null) };
}

export function viewQuietDegradation(stored: StoredQuietDegradation, directory: ComponentDirectory): QuietDegradationView {
  return {
    vendor: { slug: stored.vendorSlug, name: stored.vendorName },
    from: stored.from,
    until: stored.until,
    // By name: the stored keys' order means nothing to a reader.
    components: stored.components.map((key) => nameComponent(directory, key)).sort((a, b) => a.name.localeCompare(b.name, "en") || (a.id < b.id ? -1 : 1)),
  };
}

const sameName = (a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "accent" }) === 0;

/** Whether a name matches a name a reader typed: case aside, as the component filters compare. */
export function namesMatch(a: string, b: string): boolean {
  return sameName(a, b);
}

/** The distinct group names of its components, in their order. */
export function groupsOf(view: { components: readonly NamedComponent[] }): string[] {
  const out: string[] = [];
  for (const c of view.components) if (c.group !== null && !out.some((g) => sameName(g, c.group ?? ""))) out.push(c.group);
  return out;
}

/** Whether one of its components sits in a group of that name. */
export function inGroup(view: { components: readonly NamedComponent[] }, group: string): boolean {
  return view.components.some((c) => c.group !== null && sameName(c.group, group));
}

/** Whether one of its components has that name. */
export function namesComponent(view: { components: readonly NamedComponent[] }, name: string): boolean {
  return view.components.some((c) => sameName(c.name, name));
}

/** The first few names and how many more: a CDN's stretch can hold hundreds of data centres. */
export function foldComponents<T extends { name: string }>(components: readonly T[], shown = 3): { shown: T[]; more: number } {
  // One more than shown would be "+1 more", which says less than the name itself.
  const cut = components.length <= shown + 1 ? components.length : shown;
  return { shown: components.slice(0, cut), more: components.length - cut };
}

/** "REST API, DNS, CDN +4 more" */
export function foldedNames(components: readonly { name: string }[], shown = 3): string {
  const folded = foldComponents(components, shown);
  const names = folded.shown.map((c) => c.name).join(", ");
  return folded.more > 0 ? `${names} +${folded.more} more` : names || "(no component named)";
}

/** How long it lasted, or null while it goes on. */
export function quietDuration(view: Pick<QuietDegradationView, "from" | "until">): string | null {
  return view.until === null ? null : formatDuration(msBetween(view.from, view.until));
}

/**
 * One sentence for feeds, exports and messages: "REST API and DNS were degraded or out while Acme
 * had no incident open, from 2026-03-02 13:00 UTC to 15:00 UTC (2 h)." or "…, since … (ongoing)."
 */
export function describeQuietDegradation(view: QuietDegradationView): string {
  const count = view.components.length;
  const names = count === 0 ? "(no component named)" : formatList(view.components.map((c) => c.name), 4);
  const subject = `${names} ${count === 1 ? "was" : "were"} degraded or out`;
  const span =
    view.until === null
      ? `since ${formatUtcMinute(view.from)} (ongoing when last observed)`
      : `from ${formatUtcMinute(view.from)} to ${formatUtcMinute(view.until)} (${quietDuration(view) ?? ""})`;
  return `${subject} while ${view.vendor.name} had no incident open, ${span}.`;
}
