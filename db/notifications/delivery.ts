/**
 * The outbox's delivery side: planning waiting notifications into messages, claiming the messages
 * due, reading what a message carries, and recording each attempt (the delivery log).
 */
import { randomBytes } from "node:crypto";
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementShaped, statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";
import { getVersionDetail, type VersionDetail } from "@/db/queries/incident-page";
import { QUIET_DEGRADATION_SEQ } from "@/db/notifications/outbox";
import { findQuietDegradation } from "@/db/queries/quiet-degradations";
import { markDisabled } from "@/db/notifications/subscriptions";
import type { QuietDegradationView } from "@/lib/components/quiet-degradation";
import type { MessageKind } from "@/lib/notify/outbound-message";
import { type PendingNotification, planMessages } from "@/lib/notify/plan-messages";
import type { AttemptDecision } from "@/lib/notify/retry-policy";
import type { SendResult } from "@/lib/notify/send-result";

/** A claimed message is not claimed again for this long: a notifier that dies mid-send is retried after it. */
const CLAIM_LEASE_MS = 5 * 60_000;
const MINUTE_MS = 60_000;

type CarriedRow = { vendorId: number; vendorSlug: string; vendorName: string; providerId: string; seq: number; incidentId: number | null; title: string | null };
type ClaimedRow = Omit<ClaimedMessage, "period"> & { period: string | null };

const statements = statementsFor((c: Connection) => ({
  waiting: c.prepare<[], { id: string; digest: "hourly" | "daily" | null }>(
    `SELECT s.id, s.digest FROM subscriptions s WHERE s.status = 'active'
     AND EXISTS (SELECT 1 FROM notifications n WHERE n.subscription_id = s.id AND n.message_id IS NULL)`,
  ),
  pendingOf: c.prepare<[string], PendingNotification>("SELECT id, created_at AS createdAt FROM notifications WHERE subscription_id = ? AND message_id IS NULL ORDER BY id"),
  recentOf: c.prepare<[string, string], { createdAt: string }>(
    "SELECT created_at AS createdAt FROM notification_messages WHERE subscription_id = ? AND kind <> 'test' AND created_at > ?",
  ),
  lastDigestOf: c.prepare<[string], { at: string | null }>("SELECT max(created_at) AS at FROM notification_messages WHERE subscription_id = ? AND kind = 'digest'"),
  insertMessage: c.prepare<[string, string, string, string, string, string | null], { id: number }>(
    "INSERT INTO notification_messages (subscription_id, webhook_id, kind, next_attempt_at, created_at, period) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
  ),
  assign: c.prepare<[number, number]>("UPDATE notifications SET message_id = ? WHERE id = ?"),
  // Two notifiers never claim one message: each skips what the other locked.
  due: c.prepare<[string, number], ClaimedRow>(
    `SELECT m.id, m.subscription_id AS subscriptionId, m.webhook_id AS webhookId, m.kind, m.attempts, m.created_at AS createdAt, m.period
     FROM notification_messages m JOIN subscriptions s ON s.id = m.subscription_id
     WHERE m.status = 'pending' AND m.next_attempt_at <= ? AND s.status = 'active' ORDER BY m.next_attempt_at, m.id LIMIT ?${c.dialect.operations.skipLocked("m")}`,
  ),
  lease: c.prepare<[string, number]>("UPDATE notification_messages SET next_attempt_at = ? WHERE id = ?"),
  nextDue: c.prepare<[], { at: string | null }>(
    "SELECT min(m.next_attempt_at) AS at FROM notification_messages m JOIN subscriptions s ON s.id = m.subscription_id WHERE m.status = 'pending' AND s.status = 'active'",
  ),
  anyWaiting: c.prepare<[], { one: number }>(
    "SELECT 1 AS one FROM notifications n JOIN subscriptions s ON s.id = n.subscription_id WHERE n.message_id IS NULL AND s.status = 'active' LIMIT 1",
  ),
  carried: c.prepare<[number], CarriedRow>(
    `SELECT n.vendor_id AS "vendorId", v.slug AS "vendorSlug", v.name AS "vendorName", n.provider_id AS "providerId", n.seq, i.id AS "incidentId", i.title
     FROM notifications n JOIN vendors v ON v.id = n.vendor_id LEFT JOIN incidents i ON i.vendor_id = n.vendor_id AND i.provider_id = n.provider_id AND n.seq <> ${QUIET_DEGRADATION_SEQ}
     WHERE n.message_id = ? ORDER BY n.id`,
  ),
  insertTest: c.prepare<[string, string, string, string], { id: number }>(
    "INSERT INTO notification_messages (subscription_id, webhook_id, kind, next_attempt_at, created_at) VALUES (?, ?, 'test', ?, ?) RETURNING id",
  ),
  drop: c.prepare<[string, number]>("UPDATE notification_messages SET status = 'dropped', last_error = ? WHERE id = ?"),
  attempt: c.prepare<[number, string, string, number | null, number, string, string | null]>(
    "INSERT INTO delivery_attempts (message_id, subscription_id, attempted_at, status_code, duration_ms, outcome, error) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ),
  sent: c.prepare<[string, number]>("UPDATE notification_messages SET status = 'sent', attempts = attempts + 1, sent_at = ?, last_error = NULL WHERE id = ?"),
  retry: c.prepare<[string, string | null, number]>("UPDATE notification_messages SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? WHERE id = ?"),
  ended: c.prepare<[string, string, number]>("UPDATE notification_messages SET status = ?, attempts = attempts + 1, last_error = ? WHERE id = ?"),
  delivered: c.prepare<[string, string]>("UPDATE subscriptions SET failing_since = NULL, last_delivered_at = ? WHERE id = ?"),
  failing: c.prepare<[string, string]>("UPDATE subscriptions SET failing_since = ? WHERE id = ?"),
  deliveries: c.prepare<[string, number], DeliveryLogEntry>(
    `SELECT a.attempted_at AS attemptedAt, m.webhook_id AS webhookId, m.kind, (SELECT count(*) FROM notifications n WHERE n.message_id = m.id) AS changes,
       a.status_code AS statusCode, a.duration_ms AS durationMs, a.outcome, a.error
     FROM delivery_attempts a JOIN notification_messages m ON m.id = a.message_id WHERE a.subscription_id = ? ORDER BY a.id DESC LIMIT ?`,
  ),
}));

export function newWebhookId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

/** Form messages from every active subscription's waiting notifications; returns how many were formed. */
export async function planWaitingMessages(db: RedlineDb, now: string): Promise<number> {
  const st = statements(db);
  const waiting = await st.waiting.all();
  let formed = 0;
  for (const s of waiting) {
    await transact(db, async () => {
      const planned = planMessages({
        now,
        digest: s.digest,
        pending: await st.pendingOf.all(s.id),
        recentMessageTimes: (await st.recentOf.all(s.id, new Date(Date.parse(now) - MINUTE_MS).toISOString())).map((r) => r.createdAt),
        lastDigestAt: (await st.lastDigestOf.get(s.id))?.at ?? null,
      });
      for (const m of planned) {
        const row = await st.insertMessage.get(s.id, newWebhookId(), m.kind, now, now, m.period ? JSON.stringify(m.period) : null);
        if (!row) throw new Error(`store: unable to insert a message for subscription ${s.id}`);
        for (const id of m.notificationIds) await st.assign.run(row.id, id);
        formed += 1;
      }
    }, { immediate: true });
  }
  return formed;
}

export interface ClaimedMessage {
  id: number;
  subscriptionId: string;
  webhookId: string;
  kind: MessageKind;
  attempts: number;
  createdAt: string;
  period: { from: string; to: string; every: "hourly" | "daily" } | null;
}

/** The messages due now, each leased so that no other round sends it meanwhile. */
export async function claimDueMessages(db: RedlineDb, now: string, limit: number): Promise<ClaimedMessage[]> {
  const st = statements(db);
  return transact(db, async () => {
    const rows = await st.due.all(now, limit);
    const until = new Date(Date.parse(now) + CLAIM_LEASE_MS).toISOString();
    for (const r of rows) await st.lease.run(until, r.id);
    return rows.map((r) => ({ ...r, period: r.period ? (JSON.parse(r.period) as ClaimedMessage["period"]) : null }));
  }, { immediate: true });
}

/** The earliest time a pending message falls due; null when none waits. */
export async function nextDueAt(db: RedlineDb): Promise<string | null> {
  return (await statements(db).nextDue.get())?.at ?? null;
}

/** Whether notifications wait to be planned into messages. */
export async function hasWaitingNotifications(db: RedlineDb): Promise<boolean> {
  return (await statements(db).anyWaiting.get()) !== undefined;
}

export interface CarriedVersion {
  vendorSlug: string;
  vendorName: string;
  providerId: string;
  title: string;
  version: VersionDetail;
}

export interface CarriedQuietDegradation {
  vendorSlug: string;
  vendorName: string;
  quietDegradation: QuietDegradationView;
}

export type CarriedChange = CarriedVersion | CarriedQuietDegradation;

/**
 * What a message carries, in the order it was recorded: versions, and quiet degradations as they
 * stand now (ended since, or grown). One a rebuild removed, or a stretch another source of the same
 * poll round ended at the instant it began, is left out.
 */
export async function readMessageChanges(db: RedlineDb, messageId: number): Promise<CarriedChange[]> {
  const rows = await statements(db).carried.all(messageId);
  const carried: CarriedChange[] = [];
  for (const r of rows) {
    if (r.seq === QUIET_DEGRADATION_SEQ) {
      const quietDegradation = await findQuietDegradation(db, r.vendorId, r.providerId);
      if (quietDegradation) carried.push({ vendorSlug: r.vendorSlug, vendorName: r.vendorName, quietDegradation });
      continue;
    }
    const version = r.incidentId === null ? undefined : await getVersionDetail(db, r.incidentId, r.seq);
    if (version) carried.push({ vendorSlug: r.vendorSlug, vendorName: r.vendorName, providerId: r.providerId, title: r.title ?? "", version });
  }
  return carried;
}

/** The newest version in the archive a subscription's filter would see first: what a test message carries. */
export async function readSampleVersion(db: RedlineDb, vendorSlugs: readonly string[]): Promise<CarriedVersion[]> {
  const where = vendorSlugs.length > 0 ? `WHERE v.slug IN (${vendorSlugs.map(() => "?").join(", ")})` : "";
  const row = await statementShaped<string[], { vendorSlug: string; vendorName: string; providerId: string; seq: number; incidentId: number; title: string }>(
    db.connection,
    `SELECT v.slug AS vendorSlug, v.name AS vendorName, i.provider_id AS providerId, iv.seq, i.id AS incidentId, i.title
     FROM incident_versions iv JOIN incidents i ON i.id = iv.incident_id JOIN vendors v ON v.id = iv.vendor_id ${where} ORDER BY iv.id DESC LIMIT 1`,
  ).get(...vendorSlugs);
  const version = row ? await getVersionDetail(db, row.incidentId, row.seq) : undefined;
  return row && version ? [{ vendorSlug: row.vendorSlug, vendorName: row.vendorName, providerId: row.providerId, title: row.title, version }] : [];
}

/** A test message, due now. */
export async function enqueueTestMessage(db: RedlineDb, subscriptionId: string, now = new Date().toISOString()): Promise<{ id: number; webhookId: string }> {
  const webhookId = newWebhookId();
  const row = await statements(db).insertTest.get(subscriptionId, webhookId, now, now);
  if (!row) throw new Error(`store: unable to insert a test message for ${subscriptionId}`);
  return { id: row.id, webhookId };
}

/** Mark a message that has nothing left to carry. */
export async function dropMessage(db: RedlineDb, messageId: number, reason: string): Promise<void> {
  await statements(db).drop.run(reason, messageId);
}

/** Write one attempt to the delivery log and apply what it decided, in one transaction. */
export async function recordAttempt(
  db: RedlineDb,
  message: ClaimedMessage,
  attempt: { at: string; durationMs: number; result: SendResult },
  decision: AttemptDecision,
): Promise<void> {
  const st = statements(db);
  const { result } = attempt;
  await transact(db, async () => {
    await st.attempt.run(message.id, message.subscriptionId, attempt.at, result.statusCode, Math.round(attempt.durationMs), result.outcome, result.error);
    const m = decision.message;
    if (m.status === "sent") await st.sent.run(attempt.at, message.id);
    else if (m.status === "pending") await st.retry.run(m.nextAttemptAt, result.error, message.id);
    else await st.ended.run(m.status, m.reason, message.id);
    const s = decision.subscription;
    if (s.kind === "delivered") await st.delivered.run(attempt.at, message.subscriptionId);
    else if (s.kind === "failing") await st.failing.run(s.since, message.subscriptionId);
    else if (s.kind === "disable") await markDisabled(db, message.subscriptionId, s.reason, attempt.at);
  }, { immediate: true });
}

export interface DeliveryLogEntry {
  attemptedAt: string;
  webhookId: string;
  kind: MessageKind;
  changes: number;
  statusCode: number | null;
  durationMs: number;
  outcome: string;
  error: string | null;
}

/** A subscription's delivery log, newest first. */
export async function listDeliveries(db: RedlineDb, subscriptionId: string, limit = 100): Promise<DeliveryLogEntry[]> {
  return statements(db).deliveries.all(subscriptionId, limit);
}
