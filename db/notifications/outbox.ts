/**
 * The outbox. In a capture's transaction: one row per new version (`enqueueVersions`) or new
 * quiet degradation (`enqueueQuietDegradation`), so a recorded change's notifications survive a
 * crash and polling costs the same however many subscriptions there are. In the notifier: those
 * rows matched against the active subscriptions into per-subscription notifications (`fanOutVersions`).
 *
 * A quiet degradation is no version: its rows name it by what survives a rebuild, its vendor and
 * start, as (provider_id = its start, seq = QUIET_DEGRADATION_SEQ); a version's seq starts at 1.
 */
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";
import { type ActiveSubscription, matchSubscriptions, type VersionFacts } from "@/lib/notify/select-notifications";
import type { ChangeFacts } from "@/lib/notify/subscription-filter";
import { subscriptionFilterSchema, type WatchlistScope } from "@/lib/notify/subscription-filter";

interface SubscriptionRow {
  id: string;
  filter: string;
  watchlistId: number | null;
  watchlistName: string | null;
}

const statements = statementsFor((c: Connection) => ({
  anyActive: c.prepare<[], { one: number }>("SELECT 1 AS one FROM subscriptions WHERE status = 'active' LIMIT 1"),
  active: c.prepare<[], SubscriptionRow>(
    `SELECT s.id, s.filter, s.watchlist_id AS watchlistId, w.name AS watchlistName FROM subscriptions s
     LEFT JOIN watchlists w ON w.id = s.watchlist_id WHERE s.status = 'active' ORDER BY s.id`,
  ),
  members: c.prepare<[], { watchlistId: number; vendor: string; component: string | null }>(
    "SELECT m.watchlist_id AS watchlistId, v.slug AS vendor, m.component FROM watchlist_members m JOIN vendors v ON v.id = m.vendor_id",
  ),
  enqueue: c.prepare<[number, string, number, string, string]>("INSERT INTO outbox_versions (vendor_id, provider_id, seq, facts, created_at) VALUES (?, ?, ?, ?, ?)"),
  anyWaiting: c.prepare<[], { one: number }>("SELECT 1 AS one FROM outbox_versions LIMIT 1"),
  waiting: c.prepare<[number], { id: number; vendorId: number; providerId: string; seq: number; facts: string; createdAt: string }>(
    "SELECT id, vendor_id AS vendorId, provider_id AS providerId, seq, facts, created_at AS createdAt FROM outbox_versions ORDER BY id LIMIT ?",
  ),
  notify: c.prepare<[string, number, string, number, string]>(
    "INSERT INTO notifications (subscription_id, vendor_id, provider_id, seq, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
  ),
  matched: c.prepare<[number]>("DELETE FROM outbox_versions WHERE id <= ?"),
}));

/** The seq that marks an outbox row or a notification as a quiet degradation's, whose provider_id is then its start. */
export const QUIET_DEGRADATION_SEQ = 0;

/** Whether any subscription is active: without one, a capture writes nothing to the outbox. */
export async function hasActiveSubscriptions(db: RedlineDb): Promise<boolean> {
  return (await statements(db).anyActive.get()) !== undefined;
}

/** Every active subscription with its watchlist resolved to vendor slugs; a filter that no longer parses is skipped. */
export async function loadActiveSubscriptions(db: RedlineDb): Promise<ActiveSubscription[]> {
  const s = statements(db);
  const rows = await s.active.all();
  if (rows.length === 0) return [];
  const members = new Map<number, WatchlistScope["members"][number][]>();
  for (const m of await s.members.all()) {
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

/** Inside the capture's transaction: the versions it added, to be matched by the notifier. */
export async function enqueueVersions(db: RedlineDb, vendorId: number, versions: readonly VersionFacts[], createdAt: string): Promise<number> {
  if (versions.length === 0 || !(await hasActiveSubscriptions(db))) return 0;
  const insert = statements(db).enqueue;
  for (const v of versions) await insert.run(vendorId, v.providerId, v.seq, JSON.stringify(v.facts), createdAt);
  return versions.length;
}

/** Inside the capture's transaction: the quiet degradation it started, to be matched by the notifier. */
export async function enqueueQuietDegradation(db: RedlineDb, vendorId: number, started: { from: string; facts: ChangeFacts }, createdAt: string): Promise<number> {
  if (!(await hasActiveSubscriptions(db))) return 0;
  await statements(db).enqueue.run(vendorId, started.from, QUIET_DEGRADATION_SEQ, JSON.stringify(started.facts), createdAt);
  return 1;
}

/** Whether recorded versions wait to be matched. */
export async function hasVersionsToFanOut(db: RedlineDb): Promise<boolean> {
  return (await statements(db).anyWaiting.get()) !== undefined;
}

/** Match waiting versions (oldest first, `limit` at a time) into notifications; returns how many notifications were written. */
export async function fanOutVersions(db: RedlineDb, limit = 1_000): Promise<number> {
  const s = statements(db);
  return transact(db, async () => {
    const rows = await s.waiting.all(limit);
    if (rows.length === 0) return 0;
    const subscriptions = await loadActiveSubscriptions(db);
    let written = 0;
    for (const row of rows) {
      for (const id of matchSubscriptions(JSON.parse(row.facts) as ChangeFacts, subscriptions)) written += (await s.notify.run(id, row.vendorId, row.providerId, row.seq, row.createdAt)).changes;
    }
    await s.matched.run(rows[rows.length - 1]?.id ?? 0);
    return written;
  }, { immediate: true });
}
