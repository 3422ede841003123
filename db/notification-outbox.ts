/**
 * The outbox's write side: the active subscriptions a capture is matched against, and the
 * notifications it causes, written inside the capture's transaction so a recorded version's
 * notifications survive a crash before delivery.
 */
import type { RedlineDb } from "@/db/client";
import type { ActiveSubscription, DueNotification } from "@/lib/notify/select-notifications";
import { subscriptionFilterSchema, type WatchlistScope } from "@/lib/notify/subscription-filter";

interface SubscriptionRow {
  id: string;
  filter: string;
  watchlistId: number | null;
  watchlistName: string | null;
}

/** Every active subscription with its watchlist resolved to vendor slugs; a filter that no longer parses is skipped, not fatal. */
export function loadActiveSubscriptions(db: RedlineDb): ActiveSubscription[] {
  const sqlite = db.$client;
  const rows = sqlite
    .prepare<[], SubscriptionRow>(
      `SELECT s.id, s.filter, s.watchlist_id AS watchlistId, w.name AS watchlistName FROM subscriptions s
       LEFT JOIN watchlists w ON w.id = s.watchlist_id WHERE s.status = 'active' ORDER BY s.id`,
    )
    .all();
  if (rows.length === 0) return [];
  const members = new Map<number, WatchlistScope["members"][number][]>();
  for (const m of sqlite
    .prepare<[], { watchlistId: number; vendor: string; component: string | null }>(
      "SELECT m.watchlist_id AS watchlistId, v.slug AS vendor, m.component FROM watchlist_members m JOIN vendors v ON v.id = m.vendor_id",
    )
    .all()) {
    const list = members.get(m.watchlistId) ?? [];
    list.push({ vendor: m.vendor, component: m.component });
    members.set(m.watchlistId, list);
  }
  const active: ActiveSubscription[] = [];
  for (const row of rows) {
    const parsed = subscriptionFilterSchema.safeParse(JSON.parse(row.filter));
    if (!parsed.success) continue;
    const watchlist = row.watchlistId === null ? null : { name: row.watchlistName ?? "", members: members.get(row.watchlistId) ?? [] };
    active.push({ id: row.id, filter: parsed.data, watchlist });
  }
  return active;
}

/** Write the notifications; one already written (the same version notified twice) is kept as it was. */
export function enqueueNotifications(db: RedlineDb, vendorId: number, due: readonly DueNotification[], createdAt: string): number {
  if (due.length === 0) return 0;
  const insert = db.$client.prepare(
    "INSERT INTO notifications (subscription_id, vendor_id, provider_id, seq, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  );
  let written = 0;
  for (const n of due) written += insert.run(n.subscriptionId, vendorId, n.providerId, n.seq, createdAt).changes;
  return written;
}
