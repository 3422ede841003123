import type { Connection, OperationsDialect, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { type PollStateRow, SAVE_POLL_STATE } from "@/db/operations/poll-state";
import { transact } from "@/db/driver/transaction";
import { type StoredVendor, VENDOR_COLUMNS, vendorFromRow, type VendorRow } from "@/db/settings/vendors";

/**
 * Several pollers share one database's vendors with leases, not with coordination of their own: a
 * poller claims due vendors by writing its name and an expiry on their poll_state rows in one
 * statement, polls them, renews what it holds while it works, and clears each lease as it records
 * the poll's outcome. One that dies stops renewing; its vendors are due again for any poller once
 * the leases expire. SQLite runs one writer at a time, so the claim is atomic as it stands; on
 * PostgreSQL the same statement's subquery takes `FOR UPDATE SKIP LOCKED`, so claims need no
 * writer lock there: concurrent ones pass over each other's rows instead of waiting.
 */

/** Who takes a lease, when, and until when. */
export interface PollLease {
  /** Who claims: unique per poller process (see pollerIdentity). */
  owner: string;
  /** ISO time: vendors due at or before it, whose lease (if any) expired by then. */
  now: string;
  /** ISO time the claimed leases run to unless renewed. */
  until: string;
}

export interface ClaimRequest extends PollLease {
  limit: number;
  /** Only this vendor. */
  slug?: string;
  /** Vendors the claimer is polling or holding back itself. */
  exclude?: readonly number[];
}

function claimSql(d: OperationsDialect): string {
  return `UPDATE poll_state SET lease_owner = @owner, lease_expires_at = @until
     WHERE vendor_id IN (
       SELECT p.vendor_id FROM poll_state p JOIN vendors v ON v.id = p.vendor_id
       WHERE ${d.isTrue("v.enabled")} AND v.url IS NOT NULL AND p.next_poll_at <= @now
         AND (p.lease_expires_at IS NULL OR p.lease_expires_at <= @now OR p.lease_owner = @owner)
         AND (${d.typed("@slug", "text")} IS NULL OR v.slug = @slug)
         AND p.vendor_id NOT IN (${d.listedIds("exclude")})
       ORDER BY p.next_poll_at, p.vendor_id LIMIT @limit${d.skipLocked("p")})
     RETURNING vendor_id AS vendorId, next_poll_at AS nextPollAt`;
}

function nextDueSql(d: OperationsDialect): string {
  return `SELECT min(CASE WHEN p.lease_owner ${d.isDistinctFrom} ${d.typed("@owner", "text")} AND p.lease_expires_at > p.next_poll_at THEN p.lease_expires_at ELSE p.next_poll_at END) AS at
     FROM poll_state p JOIN vendors v ON v.id = p.vendor_id
     WHERE ${d.isTrue("v.enabled")} AND v.url IS NOT NULL AND (${d.typed("@slug", "text")} IS NULL OR v.slug = @slug)
       AND p.vendor_id NOT IN (${d.listedIds("exclude")})`;
}

const statements = statementsFor((c: Connection) => ({
  // A vendor never scheduled has no poll_state row to hold a lease: give it one, due now.
  schedule: c.prepare<[string]>(c.dialect.operations.schedulePolls),
  // Where claims run side by side, each locks the rows it picks and skips those another claim holds.
  claim: c.prepare<{ owner: string; now: string; until: string; limit: number; slug: string | null; exclude: string }, { vendorId: number; nextPollAt: string }>(claimSql(c.dialect.operations)),
  vendors: c.prepare<{ ids: string }, StoredVendor>(`SELECT ${VENDOR_COLUMNS} FROM vendors WHERE id IN (${c.dialect.operations.listedIds("ids")})`),
  // The poll's outcome and schedule (db/operations/poll-state.ts's columns) and the lease's end in one write, not two commits.
  settle: c.prepare<PollStateRow & { owner: string }>(
    `${SAVE_POLL_STATE},
       lease_owner = CASE WHEN poll_state.lease_owner = @owner THEN NULL ELSE poll_state.lease_owner END,
       lease_expires_at = CASE WHEN poll_state.lease_owner = @owner THEN NULL ELSE poll_state.lease_expires_at END`,
  ),
  release: c.prepare<[number, string]>(`UPDATE poll_state SET lease_owner = NULL, lease_expires_at = NULL WHERE vendor_id = ? AND lease_owner = ?`),
  // The check and the write in one statement: on PostgreSQL a claim elsewhere may take the row between two.
  leaseFree: c.prepare<{ vendorId: number; owner: string; now: string; until: string }>(
    `INSERT INTO poll_state (vendor_id, next_poll_at, lease_owner, lease_expires_at) VALUES (@vendorId, @now, @owner, @until)
     ON CONFLICT (vendor_id) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at
     WHERE poll_state.lease_owner IS NULL OR poll_state.lease_owner = excluded.lease_owner OR poll_state.lease_expires_at <= @now`,
  ),
  renew: c.prepare<{ owner: string; ids: string; now: string; until: string }>(
    `UPDATE poll_state SET lease_expires_at = @until
     WHERE lease_owner = @owner AND vendor_id IN (${c.dialect.operations.listedIds("ids")}) AND lease_expires_at > @now`,
  ),
  holder: c.prepare<[number], { owner: string | null; expiresAt: string | null }>(
    `SELECT lease_owner AS owner, lease_expires_at AS expiresAt FROM poll_state WHERE vendor_id = ?`,
  ),
  nextDue: c.prepare<{ owner: string; slug: string | null; exclude: string }, { at: string | null }>(nextDueSql(c.dialect.operations)),
}));

/**
 * Claim up to `limit` due vendors no other poller holds, soonest due first (its own lapsed or held
 * ones included, unless excluded), and return them.
 */
export async function claimDueVendors(db: RedlineDb, request: ClaimRequest): Promise<VendorRow[]> {
  if (request.limit <= 0) return [];
  const s = statements(db);
  const claimed = await transact(
    db,
    async () => {
      await s.schedule.run(request.now);
      return s.claim.all({
        owner: request.owner,
        now: request.now,
        until: request.until,
        limit: request.limit,
        slug: request.slug ?? null,
        exclude: JSON.stringify(request.exclude ?? []),
      });
    },
    { immediate: db.connection.dialect.operations.claimsTakeWriteLock },
  );
  if (claimed.length === 0) return [];
  // RETURNING keeps no order on PostgreSQL.
  claimed.sort((a, b) => (a.nextPollAt < b.nextPollAt ? -1 : a.nextPollAt > b.nextPollAt ? 1 : a.vendorId - b.vendorId));
  const rows = await s.vendors.all({ ids: JSON.stringify(claimed.map((r) => r.vendorId)) });
  const byId = new Map(rows.map((v) => [v.id, vendorFromRow(v)]));
  return claimed.flatMap((r) => byId.get(r.vendorId) ?? []);
}

/** Lease the vendor to the owner unless another poller holds it; whether it did. */
export async function leaseFreeVendor(db: RedlineDb, vendorId: number, lease: PollLease): Promise<boolean> {
  return (await statements(db).leaseFree.run({ vendorId, owner: lease.owner, now: lease.now, until: lease.until })).changes > 0;
}

/**
 * Extend to `until` the owner's unexpired leases on these vendors (the polls it has in flight; a
 * claimed vendor it holds back lapses); how many it still holds.
 */
export async function renewLeases(db: RedlineDb, owner: string, vendorIds: readonly number[], now: string, until: string): Promise<number> {
  if (vendorIds.length === 0) return 0;
  return (await statements(db).renew.run({ owner, ids: JSON.stringify(vendorIds), now, until })).changes;
}

/**
 * Save a poll's outcome and when the vendor is polled next, and give the vendor back if this owner
 * still holds it, in one statement: polling writes this for every vendor of every round.
 */
export async function settlePoll(db: RedlineDb, state: PollStateRow, owner: string): Promise<void> {
  await statements(db).settle.run({ ...state, owner });
}

/** Give a vendor back, only if this owner still holds it (one whose lease was taken over keeps its new holder). */
export async function releaseLease(db: RedlineDb, vendorId: number, owner: string): Promise<boolean> {
  return (await statements(db).release.run(vendorId, owner)).changes > 0;
}

export async function leaseHolder(db: RedlineDb, vendorId: number): Promise<{ owner: string | null; expiresAt: string | null } | undefined> {
  return statements(db).holder.get(vendorId);
}

/**
 * When a vendor not excluded next falls due for this owner: its next poll, or its lease's expiry
 * when another poller holds it past that (null when nothing is scheduled).
 */
export async function nextClaimableAt(db: RedlineDb, owner: string, exclude: readonly number[] = [], slug?: string): Promise<string | null> {
  return (await statements(db).nextDue.get({ owner, slug: slug ?? null, exclude: JSON.stringify(exclude) }))?.at ?? null;
}
