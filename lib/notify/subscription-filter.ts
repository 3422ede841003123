/**
 * Which changes a subscription gets. No filter: every change. Filters combine as AND across
 * kinds of filter (vendor, watchlist, change kind, component, group, impact) and OR within one.
 * A quiet degradation is matched like a change of kind `quiet-degradation`: by its vendor, its
 * components and their groups; it has no impact, so a minimum impact never lets one through.
 */
import { z } from "zod";
import { entryKindNameSchema } from "@/lib/entry-kinds";
import { type Impact, rankImpact } from "@/lib/incident";

export const MIN_IMPACTS = ["minor", "major", "critical"] as const;
export type MinImpact = (typeof MIN_IMPACTS)[number];

export const subscriptionFilterSchema = z.strictObject({
  vendors: z.array(z.string().min(1)).default([]),
  kinds: z.array(entryKindNameSchema).default([]),
  components: z.array(z.string().min(1)).default([]),
  /** Component groups (by name): only quiet degradations with a component in one of them. */
  groups: z.array(z.string().min(1)).default([]),
  minImpact: z.enum(MIN_IMPACTS).nullable().default(null),
});
export type SubscriptionFilter = z.infer<typeof subscriptionFilterSchema>;

/** A watchlist as a filter: its vendors, each whole (component null) or narrowed to components. */
export interface WatchlistScope {
  name: string;
  members: ReadonlyArray<{ vendor: string; component: string | null }>;
}

/** What a subscription is matched against: one version of one incident. */
export interface ChangeFacts {
  vendor: string;
  kinds: readonly string[];
  /** The incident's component names, before and after the change (a quiet degradation's components). */
  components: readonly string[];
  /** The groups of a quiet degradation's components; a change of an incident states none. */
  groups?: readonly string[];
  /** The incident's impact before and after the change: a change to a major incident matters even when it lowers it. */
  impacts: ReadonlyArray<Impact | null>;
}

const sameName = (a: string, b: string) => a.localeCompare(b, "en", { sensitivity: "accent" }) === 0;
const hasComponent = (facts: ChangeFacts, name: string) => facts.components.some((c) => sameName(c, name));

function inWatchlist(scope: WatchlistScope, facts: ChangeFacts): boolean {
  return scope.members.some((m) => m.vendor === facts.vendor && (m.component === null || hasComponent(facts, m.component)));
}

function reachesImpact(facts: ChangeFacts, min: MinImpact): boolean {
  const floor = rankImpact(min) ?? 0;
  return facts.impacts.some((impact) => (rankImpact(impact) ?? -1) >= floor);
}

export function matchesSubscription(filter: SubscriptionFilter, watchlist: WatchlistScope | null, facts: ChangeFacts): boolean {
  if (filter.vendors.length > 0 && !filter.vendors.includes(facts.vendor)) return false;
  if (watchlist && !inWatchlist(watchlist, facts)) return false;
  if (filter.kinds.length > 0 && !filter.kinds.some((k) => facts.kinds.includes(k))) return false;
  if (filter.components.length > 0 && !filter.components.some((c) => hasComponent(facts, c))) return false;
  if (filter.groups.length > 0 && !filter.groups.some((g) => (facts.groups ?? []).some((name) => sameName(name, g)))) return false;
  if (filter.minImpact !== null && !reachesImpact(facts, filter.minImpact)) return false;
  return true;
}

/** The filter as a reader would say it: "vendor github, kind impact-escalated, impact major or worse". */
export function describeFilter(filter: SubscriptionFilter, watchlist: string | null): string {
  const parts = [
    filter.vendors.length > 0 ? `vendor ${filter.vendors.join(" or ")}` : null,
    watchlist ? `watchlist ${watchlist}` : null,
    filter.kinds.length > 0 ? `kind ${filter.kinds.join(" or ")}` : null,
    filter.components.length > 0 ? `component ${filter.components.join(" or ")}` : null,
    filter.groups.length > 0 ? `group ${filter.groups.join(" or ")}` : null,
    filter.minImpact ? `impact ${filter.minImpact} or worse` : null,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? "every change" : parts.join(", ");
}
