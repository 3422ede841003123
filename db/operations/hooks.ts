import type { Connection, OperationsDialect, RedlineDb } from "@/db/driver/database";
import { leaseFreeVendor, type PollLease } from "@/db/operations/poll-leases";
import { statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";

/** The webhook side of the database: secrets, deliveries already taken, push polls, throttle counts. */
export interface HookVendor {
  id: number;
  slug: string;
  platform: string;
  enabled: boolean;
  hookSecretHash: string | null;
}

export interface ThrottleRow {
  scope: string;
  throttled: number;
  lastThrottledAt: string | null;
  lastAlertAt: string | null;
}

// Two pollers' push lanes never take one pushed poll: each locks the rows it takes and skips the other's.
function duePollsSql(d: OperationsDialect): string {
  return `SELECT p.vendor_id AS vendorId FROM push_polls p JOIN vendors v ON v.id = p.vendor_id
     WHERE p.due_at <= @now AND ${d.isTrue("v.enabled")} AND v.url IS NOT NULL AND p.vendor_id NOT IN (${d.listedIds("exclude")})
       AND p.vendor_id NOT IN (SELECT vendor_id FROM poll_state WHERE lease_owner ${d.isDistinctFrom} ${d.typed("@owner", "text")} AND lease_expires_at > @now)
     ORDER BY p.due_at LIMIT @limit${d.skipLocked("p")}`;
}

const statements = statementsFor((c: Connection) => ({
  vendor: c.prepare<[string], { id: number; slug: string; platform: string; enabled: number; hookSecretHash: string | null }>(
    "SELECT id, slug, platform, enabled, hook_secret_hash AS hookSecretHash FROM vendors WHERE slug = ?",
  ),
  setSecret: c.prepare<[string | null, string]>("UPDATE vendors SET hook_secret_hash = ? WHERE slug = ?"),
  known: c.prepare<[number, string], { one: number }>("SELECT 1 AS one FROM hook_deliveries WHERE vendor_id = ? AND content_hash = ?"),
  delivery: c.prepare<[number, string, string]>("INSERT INTO hook_deliveries (vendor_id, content_hash, received_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
  requestPoll: c.prepare<[number, string, string]>("INSERT INTO push_polls (vendor_id, requested_at, due_at) VALUES (?, ?, ?) ON CONFLICT (vendor_id) DO NOTHING"),
  // A vendor another poller holds waits in the queue until that poller gives it back.
  duePolls: c.prepare<{ now: string; exclude: string; owner: string; limit: number }, { vendorId: number }>(duePollsSql(c.dialect.operations)),
  takePoll: c.prepare<[number]>("DELETE FROM push_polls WHERE vendor_id = ?"),
  nextPushDue: c.prepare<[], { dueAt: string | null }>("SELECT min(due_at) AS dueAt FROM push_polls"),
  throttle: c.prepare<[string, number, string]>(c.dialect.operations.addThrottled),
  alerted: c.prepare<[string, string]>(
    "INSERT INTO throttle_telemetry (scope, last_alert_at) VALUES (?, ?) ON CONFLICT (scope) DO UPDATE SET last_alert_at = excluded.last_alert_at",
  ),
  telemetry: c.prepare<[], ThrottleRow>(
    "SELECT scope, throttled, last_throttled_at AS lastThrottledAt, last_alert_at AS lastAlertAt FROM throttle_telemetry ORDER BY scope",
  ),
}));

export async function getHookVendor(db: RedlineDb, slug: string): Promise<HookVendor | undefined> {
  const row = await statements(db).vendor.get(slug);
  return row ? { ...row, enabled: row.enabled === 1 } : undefined;
}

/** Store the hash of a vendor's webhook secret (null: refuse its pushes). False when there is no such vendor. */
export async function setHookSecretHash(db: RedlineDb, slug: string, hash: string | null): Promise<boolean> {
  return (await statements(db).setSecret.run(hash, slug)).changes === 1;
}

/** Whether this content was taken from the vendor before. */
export async function isKnownDelivery(db: RedlineDb, vendorId: number, contentHash: string): Promise<boolean> {
  return (await statements(db).known.get(vendorId, contentHash)) !== undefined;
}

/** Record a delivery's content; false when the same content was taken before (a replay). */
export async function recordHookDelivery(db: RedlineDb, vendorId: number, contentHash: string, at: string): Promise<boolean> {
  return (await statements(db).delivery.run(vendorId, contentHash, at)).changes === 1;
}

/**
 * Ask for a poll of the vendor `debounceMs` from now; pushes before it is taken fold into the
 * same poll. False when one was already waiting.
 */
export async function requestPushPoll(db: RedlineDb, vendorId: number, nowMs: number, debounceMs: number): Promise<boolean> {
  return (await statements(db).requestPoll.run(vendorId, new Date(nowMs).toISOString(), new Date(nowMs + debounceMs).toISOString())).changes === 1;
}

/**
 * Take the pushed polls that are due, of vendors no other poller holds, each with this poller's
 * lease on the vendor (db/operations/poll-leases.ts): a pushed poll never overlaps another poller's poll.
 */
export async function takeDuePushPolls(db: RedlineDb, lease: PollLease, limit: number, busyVendorIds: readonly number[]): Promise<number[]> {
  const st = statements(db);
  return transact(db, async (tx) => {
    const due = await st.duePolls.all({ now: lease.now, exclude: JSON.stringify(busyVendorIds), owner: lease.owner, limit });
    const taken: number[] = [];
    // A vendor claimed elsewhere since it was read keeps its pushed poll waiting.
    for (const { vendorId } of due) {
      if (!(await leaseFreeVendor(tx, vendorId, lease))) continue;
      await st.takePoll.run(vendorId);
      taken.push(vendorId);
    }
    return taken;
  });
}

export async function nextPushPollDue(db: RedlineDb): Promise<string | null> {
  return (await statements(db).nextPushDue.get())?.dueAt ?? null;
}

export async function addThrottled(db: RedlineDb, scope: string, count: number, lastAt: string): Promise<void> {
  await statements(db).throttle.run(scope, count, lastAt);
}

export async function markAlerted(db: RedlineDb, scope: string, at: string): Promise<void> {
  await statements(db).alerted.run(scope, at);
}

export async function listThrottleTelemetry(db: RedlineDb): Promise<ThrottleRow[]> {
  return statements(db).telemetry.all();
}

/** Note a pushed delivery and ask for a poll of its vendor, in one transaction. */
export async function acceptHookDelivery(db: RedlineDb, vendorId: number, contentHash: string, at: string, nowMs: number, debounceMs: number): Promise<void> {
  await transact(db, async () => {
    await recordHookDelivery(db, vendorId, contentHash, at);
    await requestPushPoll(db, vendorId, nowMs, debounceMs);
  });
}

/** Add the throttle counts gathered per scope, in one transaction: all are written or none. */
export async function addThrottledCounts(db: RedlineDb, counts: ReadonlyArray<readonly [scope: string, { count: number; lastAt: string }]>): Promise<void> {
  await transact(db, async () => {
    for (const [scope, { count, lastAt }] of counts) await addThrottled(db, scope, count, lastAt);
  });
}
