/**
 * The notifications a capture's new versions cause: for each version, every active subscription
 * whose filter it matches. Pure: the record step writes what this returns in the version's transaction.
 */
import type { CaptureDerivation } from "@/lib/derive/derive-capture";
import { type ChangeFacts, matchesSubscription, type SubscriptionFilter, type WatchlistScope } from "@/lib/notify/subscription-filter";

export interface ActiveSubscription {
  id: string;
  filter: SubscriptionFilter;
  watchlist: WatchlistScope | null;
}

export interface DueNotification {
  subscriptionId: string;
  providerId: string;
  seq: number;
}

export function selectNotifications(vendor: string, derivation: CaptureDerivation, subscriptions: readonly ActiveSubscription[]): DueNotification[] {
  if (subscriptions.length === 0) return [];
  const due: DueNotification[] = [];
  for (const derived of derivation.incidents) {
    const { version } = derived;
    if (!version) continue;
    const after = derived.record.incident;
    const before = derived.before?.incident ?? null;
    const facts: ChangeFacts = {
      vendor,
      kinds: version.kinds,
      components: [...new Set([...(before?.components ?? []), ...after.components].map((c) => c.name))],
      impacts: before ? [before.impact, after.impact] : [after.impact],
    };
    for (const s of subscriptions) {
      if (matchesSubscription(s.filter, s.watchlist, facts)) due.push({ subscriptionId: s.id, providerId: derived.providerId, seq: version.seq });
    }
  }
  return due;
}
