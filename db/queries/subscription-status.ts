import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { maskTarget } from "@/lib/notify/subscription-input";
import type { TroubledSubscription } from "@/lib/notify/subscription-problems";
import type { SubscriptionFormat } from "@/lib/notify/subscription-target";

type Row = Omit<TroubledSubscription, "format"> & { format: SubscriptionFormat };

const statements = statementsFor((c: Connection) => ({
  troubled: c.prepare<[], Row>(
    `SELECT s.id, s.format, s.target, s.status, s.disabled_at AS disabledAt, s.disabled_reason AS disabledReason, s.failing_since AS failingSince,
       (SELECT a.error FROM delivery_attempts a WHERE a.subscription_id = s.id AND a.outcome <> 'delivered' ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1) AS lastError,
       (SELECT max(a.attempted_at) FROM delivery_attempts a WHERE a.subscription_id = s.id) AS lastAttemptAt
     FROM subscriptions s WHERE s.status = 'disabled' OR s.failing_since IS NOT NULL ORDER BY s.id`,
  ),
}));

/** Disabled and failing subscriptions, with their latest failed attempt's error; targets masked. */
export async function listTroubledSubscriptions(db: RedlineDb): Promise<TroubledSubscription[]> {
  return (await statements(db).troubled.all()).map((row) => ({ ...row, target: maskTarget(row.target, row.format) }));
}
