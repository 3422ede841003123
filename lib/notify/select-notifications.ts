/**
 * Which subscriptions a version notifies. The record step keeps, per new version, the facts a
 * filter reads (`versionFacts`); the notifier later matches them against every active
 * subscription (`matchSubscriptions`). Pure.
 */
import { isNewSourceReport } from "@/lib/change-kinds";
import { groupsOf, type NamedComponent, QUIET_DEGRADATION_KIND } from "@/lib/components/quiet-degradation";
import type { CaptureDerivation } from "@/lib/derive/derive-capture";
import { type ChangeFacts, matchesSubscription, type SubscriptionFilter, type WatchlistScope } from "@/lib/notify/subscription-filter";

export interface ActiveSubscription {
  id: string;
  filter: SubscriptionFilter;
  watchlist: WatchlistScope | null;
}

export interface VersionFacts {
  providerId: string;
  seq: number;
  facts: ChangeFacts;
}

/** The facts of each version a capture's derivation adds, but for a new source's account of the past: that notifies no one. */
export function versionFacts(vendor: string, derivation: CaptureDerivation): VersionFacts[] {
  const out: VersionFacts[] = [];
  for (const derived of derivation.incidents) {
    const { version } = derived;
    if (!version || isNewSourceReport(version.kinds)) continue;
    const after = derived.record.incident;
    const before = derived.before?.incident ?? null;
    out.push({
      providerId: derived.providerId,
      seq: version.seq,
      facts: {
        vendor,
        kinds: version.kinds,
        components: [...new Set([...(before?.components ?? []), ...after.components].map((c) => c.name))],
        impacts: before ? [before.impact, after.impact] : [after.impact],
      },
    });
  }
  return out;
}

/** The facts of a quiet degradation as it starts: its kind, its components' names and their groups; no impact. */
export function quietDegradationFacts(vendor: string, components: readonly NamedComponent[]): ChangeFacts {
  return { vendor, kinds: [QUIET_DEGRADATION_KIND], components: components.map((c) => c.name), groups: groupsOf({ components }), impacts: [] };
}

/** The ids of the subscriptions the change matches. */
export function matchSubscriptions(facts: ChangeFacts, subscriptions: readonly ActiveSubscription[]): string[] {
  return subscriptions.filter((s) => matchesSubscription(s.filter, s.watchlist, facts)).map((s) => s.id);
}
