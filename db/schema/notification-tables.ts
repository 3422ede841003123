import { sql } from "drizzle-orm";
import type { defineArchiveTables } from "@/db/schema/archive-tables";
import type { ColumnHelpers } from "@/db/schema/columns";
import { SUBSCRIPTION_FORMATS } from "@/lib/notify/subscription-target";

export const SUBSCRIPTION_STATUSES = ["active", "disabled"] as const;

export const MESSAGE_KINDS = ["single", "batch", "digest", "test"] as const;

export const MESSAGE_STATUSES = ["pending", "sent", "failed", "dropped"] as const;

/** Watchlists, subscriptions, and the outbox of what is sent to them. */
export function defineNotificationTables(h: ColumnHelpers, { vendors }: Pick<ReturnType<typeof defineArchiveTables>, "vendors">) {
  /** A named set of vendors (or some of their components) that a team depends on. */
  const watchlists = h.table("watchlists", {
    id: h.id("id"),
    name: h.text("name").notNull().unique(),
    createdAt: h.text("created_at").notNull(),
  });

  /** One vendor of a watchlist; component null: the whole vendor, else only incidents affecting that component. */
  const watchlistMembers = h.table(
    "watchlist_members",
    {
      id: h.id("id"),
      watchlistId: h.integer("watchlist_id").notNull().references(() => watchlists.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      component: h.text("component"),
    },
    (t) => [h.uniqueIndex("watchlist_members_identity").on(t.watchlistId, t.vendorId, sql`coalesce(${t.component}, '')`)],
  );

  /** Where changes are pushed, and which: filters as JSON (lib/notify/subscription-filter.ts). */
  const subscriptions = h.table(
    "subscriptions",
    {
      /** `sub_` and random characters: the id the CLI and API name it by. */
      id: h.text("id").primaryKey(),
      target: h.text("target").notNull(),
      format: h.text("format", { enum: SUBSCRIPTION_FORMATS }).notNull(),
      /** SubscriptionFilter as JSON. */
      filter: h.jsonText("filter").notNull(),
      /** A watchlist filter; removing the watchlist is refused while a subscription names it. */
      watchlistId: h.integer("watchlist_id").references(() => watchlists.id, { onDelete: "restrict" }),
      digest: h.text("digest", { enum: ["hourly", "daily"] }),
      /** `whsec_` and base64 key bytes (Standard Webhooks); kept to sign, never shown again after creation but by `subscriptions list --secrets`. */
      secret: h.text("secret").notNull(),
      status: h.text("status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("active"),
      disabledAt: h.text("disabled_at"),
      disabledReason: h.text("disabled_reason"),
      /** When the current run of failed attempts began; null after a success. */
      failingSince: h.text("failing_since"),
      lastDeliveredAt: h.text("last_delivered_at"),
      createdAt: h.text("created_at").notNull(),
    },
  );

  /**
   * Versions recorded by a poll or push, waiting to be matched against the subscriptions: written in
   * the version's own transaction (one row per version, whatever the number of subscriptions, so
   * polling costs the same with a thousand of them), matched by the notifier into `notifications`.
   */
  const outboxVersions = h.table("outbox_versions", {
    id: h.id("id"),
    vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
    providerId: h.text("provider_id").notNull(),
    seq: h.integer("seq").notNull(),
    /** What subscriptions are matched on (lib/notify/subscription-filter.ts ChangeFacts) as JSON. */
    facts: h.jsonText("facts").notNull(),
    createdAt: h.text("created_at").notNull(),
  });

  /**
   * The outbox: one row per (subscription, version) to notify, written in the version's own
   * transaction. The version is named by what survives a rebuild (vendor, provider id, seq), not by row ids.
   */
  const notifications = h.table(
    "notifications",
    {
      id: h.id("id"),
      subscriptionId: h.text("subscription_id").notNull().references(() => subscriptions.id, { onDelete: "cascade" }),
      vendorId: h.integer("vendor_id").notNull().references(() => vendors.id, { onDelete: "cascade" }),
      providerId: h.text("provider_id").notNull(),
      seq: h.integer("seq").notNull(),
      /** When the version was recorded. */
      createdAt: h.text("created_at").notNull(),
      /** The message that carries it; null while it waits to be planned into one. */
      messageId: h.integer("message_id").references(() => notificationMessages.id, { onDelete: "set null" }),
    },
    (t) => [
      h.uniqueIndex("notifications_identity").on(t.subscriptionId, t.vendorId, t.providerId, t.seq),
      h.index("notifications_unplanned").on(t.subscriptionId, t.id).where(sql`${t.messageId} IS NULL`),
      h.index("notifications_message").on(t.messageId),
    ],
  );

  /** One message to one subscription carrying one or more notifications; its webhook id stays across retries. */
  const notificationMessages = h.table(
    "notification_messages",
    {
      id: h.id("id"),
      subscriptionId: h.text("subscription_id").notNull().references(() => subscriptions.id, { onDelete: "cascade" }),
      /** `msg_` and random characters: Standard Webhooks' webhook-id, the receiver's deduplication key. */
      webhookId: h.text("webhook_id").notNull().unique(),
      kind: h.text("kind", { enum: MESSAGE_KINDS }).notNull(),
      status: h.text("status", { enum: MESSAGE_STATUSES }).notNull().default("pending"),
      attempts: h.integer("attempts").notNull().default(0),
      nextAttemptAt: h.text("next_attempt_at").notNull(),
      createdAt: h.text("created_at").notNull(),
      sentAt: h.text("sent_at"),
      lastError: h.text("last_error"),
      /** A digest's period as JSON {from, to, every}; null for other kinds. */
      period: h.jsonText("period"),
    },
    (t) => [
      h.index("notification_messages_due").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
      h.index("notification_messages_subscription").on(t.subscriptionId, t.createdAt),
    ],
  );

  /** The delivery log: every attempt to send a message. */
  const deliveryAttempts = h.table(
    "delivery_attempts",
    {
      id: h.id("id"),
      messageId: h.integer("message_id").notNull().references(() => notificationMessages.id, { onDelete: "cascade" }),
      subscriptionId: h.text("subscription_id").notNull().references(() => subscriptions.id, { onDelete: "cascade" }),
      attemptedAt: h.text("attempted_at").notNull(),
      /** The HTTP status or SMTP reply code; null when none came (refused, timed out). */
      statusCode: h.integer("status_code"),
      durationMs: h.integer("duration_ms").notNull(),
      outcome: h.text("outcome", { enum: ["delivered", "retry", "gone", "failed"] }).notNull(),
      error: h.text("error"),
    },
    (t) => [h.index("delivery_attempts_subscription").on(t.subscriptionId, t.id)],
  );

  return {
    watchlists,
    watchlistMembers,
    subscriptions,
    outboxVersions,
    notifications,
    notificationMessages,
    deliveryAttempts,
  };
}
