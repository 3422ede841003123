/** Subscriptions: where changes are pushed. The delivery side lives in notify/; its log is read here too. */
import { randomBytes } from "node:crypto";
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";
import { type SubscriptionFilter, subscriptionFilterSchema } from "@/lib/notify/subscription-filter";
import type { SubscriptionFormat } from "@/lib/notify/subscription-target";

export class SubscriptionError extends Error {
  readonly kind = "subscription";
}

export interface Subscription {
  id: string;
  target: string;
  format: SubscriptionFormat;
  filter: SubscriptionFilter;
  watchlist: string | null;
  digest: "hourly" | "daily" | null;
  secret: string;
  status: "active" | "disabled";
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  lastDeliveredAt: string | null;
  createdAt: string;
}

export interface SubscriptionInput {
  target: string;
  format: SubscriptionFormat;
  filter: SubscriptionFilter;
  watchlist: string | null;
  digest: "hourly" | "daily" | null;
}

interface Row extends Omit<Subscription, "filter"> {
  filter: string;
}

const SELECT = `SELECT s.id, s.target, s.format, s.filter, w.name AS watchlist, s.digest, s.secret, s.status, s.disabled_at AS disabledAt,
  s.disabled_reason AS disabledReason, s.failing_since AS failingSince, s.last_delivered_at AS lastDeliveredAt, s.created_at AS createdAt
  FROM subscriptions s LEFT JOIN watchlists w ON w.id = s.watchlist_id`;

const statements = statementsFor((c: Connection) => ({
  vendorExists: c.prepare<[string], { one: number }>("SELECT 1 AS one FROM vendors WHERE slug = ?"),
  watchlistId: c.prepare<[string], { id: number }>("SELECT id FROM watchlists WHERE name = ?"),
  insert: c.prepare<[string, string, string, string, number | null, string | null, string, string]>(
    "INSERT INTO subscriptions (id, target, format, filter, watchlist_id, digest, secret, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  ),
  byId: c.prepare<[string], Row>(`${SELECT} WHERE s.id = ?`),
  all: c.prepare<[], Row>(`${SELECT} ORDER BY s.created_at, s.id`),
  pending: c.prepare<[], { id: string; n: number }>(
    `SELECT n.subscription_id AS id, count(*) AS n FROM notifications n LEFT JOIN notification_messages m ON m.id = n.message_id
     WHERE n.message_id IS NULL OR m.status = 'pending' GROUP BY n.subscription_id`,
  ),
  remove: c.prepare<[string]>("DELETE FROM subscriptions WHERE id = ?"),
  disable: c.prepare<[string, string, string]>("UPDATE subscriptions SET status = 'disabled', disabled_at = ?, disabled_reason = ? WHERE id = ? AND status = 'active'"),
  dropPending: c.prepare<[string, string]>(
    "UPDATE notification_messages SET status = 'dropped', last_error = coalesce(last_error, ?) WHERE subscription_id = ? AND status = 'pending'",
  ),
}));

function fromRow(row: Row): Subscription {
  return { ...row, filter: subscriptionFilterSchema.parse(JSON.parse(row.filter)) };
}

/** Standard Webhooks secrets: `whsec_` and the base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export async function addSubscription(db: RedlineDb, input: SubscriptionInput, now = new Date().toISOString()): Promise<Subscription> {
  const st = statements(db);
  const unknown: string[] = [];
  for (const slug of input.filter.vendors) if (!(await st.vendorExists.get(slug))) unknown.push(slug);
  if (unknown.length > 0) throw new SubscriptionError(`subscriptions: no vendor ${unknown.map((s) => JSON.stringify(s)).join(", ")} (see \`redline vendors list\`)`);
  let watchlistId: number | null = null;
  if (input.watchlist !== null) {
    watchlistId = (await st.watchlistId.get(input.watchlist))?.id ?? null;
    if (watchlistId === null) throw new SubscriptionError(`subscriptions: no watchlist ${JSON.stringify(input.watchlist)} (see \`redline watchlists list\`)`);
  }
  const id = `sub_${randomBytes(12).toString("base64url")}`;
  await st.insert.run(id, input.target, input.format, JSON.stringify(input.filter), watchlistId, input.digest, newSigningSecret(), now);
  const saved = await getSubscription(db, id);
  if (!saved) throw new Error(`store: unable to insert subscription ${id}`);
  return saved;
}

export async function getSubscription(db: RedlineDb, id: string): Promise<Subscription | undefined> {
  const row = await statements(db).byId.get(id);
  return row ? fromRow(row) : undefined;
}

export async function listSubscriptions(db: RedlineDb): Promise<Subscription[]> {
  return (await statements(db).all.all()).map(fromRow);
}

/** Per subscription, the changes not yet delivered: unplanned, or in a message still pending. */
export async function countPendingNotifications(db: RedlineDb): Promise<Map<string, number>> {
  const rows = await statements(db).pending.all();
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Remove a subscription with its outbox and delivery log. */
export async function removeSubscription(db: RedlineDb, id: string): Promise<boolean> {
  return (await statements(db).remove.run(id)).changes > 0;
}

/** Stop delivering to it (410 Gone, or a day of failures); what was pending is dropped. */
export async function disableSubscription(db: RedlineDb, id: string, reason: string, now = new Date().toISOString()): Promise<void> {
  await transact(db, async () => markDisabled(db, id, reason, now), { immediate: true });
}

/** What disabling writes, inside the caller's transaction: the subscription's state, and its pending messages dropped. */
export async function markDisabled(db: RedlineDb, id: string, reason: string, now: string): Promise<void> {
  const st = statements(db);
  await st.disable.run(now, reason, id);
  await st.dropPending.run(reason, id);
}
