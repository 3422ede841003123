import { describe, expect, it } from "vitest";
import { addSubscription, disableSubscription } from "@/db/notifications/subscriptions";
import { listTroubledSubscriptions } from "@/db/queries/subscription-status";
import { freshDatabase } from "@/tests/support/database";

const NO_FILTER = { vendors: [], kinds: [], components: [], groups: [], minImpact: null };

describe("the operator's list of troubled subscriptions", () => {
  it("names disabled and failing subscriptions with the latest failed attempt's error, masking chat webhook paths", async () => {
    const db = await freshDatabase();
    const healthy = await addSubscription(db, { target: "https://hooks.example.com/ok", format: "webhook", filter: NO_FILTER, watchlist: null, digest: null });
    const failing = await addSubscription(db, { target: "https://hooks.example.com/down", format: "webhook", filter: NO_FILTER, watchlist: null, digest: null });
    const gone = await addSubscription(db, { target: "https://hooks.slack.com/services/T0/B0/SECRET", format: "slack", filter: NO_FILTER, watchlist: null, digest: null });
    await disableSubscription(db, gone.id, "the target answered 410 Gone", "2026-12-02T08:00:00.000Z");
    const c = db.connection;
    await c.prepare("UPDATE subscriptions SET failing_since = ? WHERE id = ?").run("2026-12-02T09:00:00.000Z", failing.id);
    const message = await c
      .prepare("INSERT INTO notification_messages (subscription_id, webhook_id, kind, status, attempts, next_attempt_at, created_at) VALUES (?, 'msg_x', 'single', 'pending', 2, ?, ?) RETURNING id")
      .run(failing.id, "2026-12-02T10:00:00.000Z", "2026-12-02T09:00:00.000Z");
    const attempt = c.prepare("INSERT INTO delivery_attempts (message_id, subscription_id, attempted_at, status_code, duration_ms, outcome, error) VALUES (?, ?, ?, ?, 5, ?, ?)");
    await attempt.run(message.lastInsertRowid, failing.id, "2026-12-02T09:00:00.000Z", 500, "retry", "HTTP 500");
    await attempt.run(message.lastInsertRowid, failing.id, "2026-12-02T09:01:00.000Z", 503, "retry", "HTTP 503");
    const rows = await listTroubledSubscriptions(db);
    expect(rows.map((r) => r.id).sort()).toEqual([failing.id, gone.id].sort());
    expect(rows.find((r) => r.id === healthy.id)).toBeUndefined();
    expect(rows.find((r) => r.id === failing.id)).toMatchObject({ lastError: "HTTP 503", lastAttemptAt: "2026-12-02T09:01:00.000Z", failingSince: "2026-12-02T09:00:00.000Z" });
    const disabled = rows.find((r) => r.id === gone.id);
    expect(disabled).toMatchObject({ status: "disabled", disabledReason: "the target answered 410 Gone", disabledAt: "2026-12-02T08:00:00.000Z" });
    expect(disabled?.target).not.toContain("SECRET");
  });
});
