import type Database from "better-sqlite3";
import { and, eq, gt, inArray } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";
import { pollState, vendors } from "@/db/schema";
import { transact } from "@/db/transaction";
import type { VendorRow } from "@/db/vendors";

/**
 * Several pollers share one database's vendors with leases, not with coordination of their own: a
 * poller claims due vendors by writing its name and an expiry on their poll_state rows in one
 * statement, polls them, renews what it holds while it works, and clears each lease as it records
 * the poll's outcome. One that dies stops renewing; its vendors are due again for any poller once
 * the leases expire. SQLite runs one writer at a time, so the claim is atomic as it stands; on
 * PostgreSQL the same statement's subquery takes `FOR UPDATE SKIP LOCKED`.
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

const statements = preparedFor((sqlite: Database.Database) => ({
  // A vendor never scheduled has no poll_state row to hold a lease: give it one, due now.
  schedule: sqlite.prepare<[string]>(
    `INSERT INTO poll_state (vendor_id, next_poll_at)
     SELECT id, ? FROM vendors WHERE enabled = 1 AND url IS NOT NULL AND id NOT IN (SELECT vendor_id FROM poll_state)`,
  ),
  claim: sqlite.prepare<{ owner: string; now: string; until: string; limit: number; slug: string | null; exclude: string }, { vendorId: number }>(
    `UPDATE poll_state SET lease_owner = @owner, lease_expires_at = @until
     WHERE vendor_id IN (
       SELECT p.vendor_id FROM poll_state p JOIN vendors v ON v.id = p.vendor_id
       WHERE v.enabled = 1 AND v.url IS NOT NULL AND p.next_poll_at <= @now
         AND (p.lease_expires_at IS NULL OR p.lease_expires_at <= @now OR p.lease_owner = @owner)
         AND (@slug IS NULL OR v.slug = @slug)
         AND p.vendor_id NOT IN (SELECT value FROM json_each(@exclude))
       ORDER BY p.next_poll_at, p.vendor_id LIMIT @limit)
     RETURNING vendor_id AS vendorId`,
  ),
  release: sqlite.prepare<[number, string]>(`UPDATE poll_state SET lease_owner = NULL, lease_expires_at = NULL WHERE vendor_id = ? AND lease_owner = ?`),
  lease: sqlite.prepare<[number, string, string, string]>(
    `INSERT INTO poll_state (vendor_id, next_poll_at, lease_owner, lease_expires_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (vendor_id) DO UPDATE SET lease_owner = excluded.lease_owner, lease_expires_at = excluded.lease_expires_at`,
  ),
  holder: sqlite.prepare<[number], { owner: string | null; expiresAt: string | null }>(
    `SELECT lease_owner AS owner, lease_expires_at AS expiresAt FROM poll_state WHERE vendor_id = ?`,
  ),
  nextDue: sqlite.prepare<{ owner: string; slug: string | null; exclude: string }, { at: string | null }>(
    `SELECT min(CASE WHEN p.lease_owner IS NOT @owner AND p.lease_expires_at > p.next_poll_at THEN p.lease_expires_at ELSE p.next_poll_at END) AS at
     FROM poll_state p JOIN vendors v ON v.id = p.vendor_id
     WHERE v.enabled = 1 AND v.url IS NOT NULL AND (@slug IS NULL OR v.slug = @slug)
       AND p.vendor_id NOT IN (SELECT value FROM json_each(@exclude))`,
  ),
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
      s.schedule.run(request.now);
      return s.claim.all({
        owner: request.owner,
        now: request.now,
        until: request.until,
        limit: request.limit,
        slug: request.slug ?? null,
        exclude: JSON.stringify(request.exclude ?? []),
      });
    },
    { immediate: true },
  );
  const ids = claimed.map((r) => r.vendorId);
  if (ids.length === 0) return [];
  const rows = await db.select().from(vendors).where(inArray(vendors.id, ids));
  const byId = new Map(rows.map((v) => [v.id, v]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** Lease these vendors to the owner whoever held them: for a caller that checked, in its transaction, that nobody else does. */
export async function leaseVendors(db: RedlineDb, vendorIds: readonly number[], lease: PollLease): Promise<void> {
  const s = statements(db);
  for (const id of vendorIds) s.lease.run(id, lease.now, lease.owner, lease.until);
}

/**
 * Extend to `until` the owner's unexpired leases on these vendors (the polls it has in flight; a
 * claimed vendor it holds back lapses); how many it still holds.
 */
export async function renewLeases(db: RedlineDb, owner: string, vendorIds: readonly number[], now: string, until: string): Promise<number> {
  if (vendorIds.length === 0) return 0;
  const renewed = await db
    .update(pollState)
    .set({ leaseExpiresAt: until })
    .where(and(eq(pollState.leaseOwner, owner), inArray(pollState.vendorId, [...vendorIds]), gt(pollState.leaseExpiresAt, now)))
    .returning({ vendorId: pollState.vendorId });
  return renewed.length;
}

/** Give a vendor back, only if this owner still holds it (one whose lease was taken over keeps its new holder). */
export async function releaseLease(db: RedlineDb, vendorId: number, owner: string): Promise<boolean> {
  return statements(db).release.run(vendorId, owner).changes > 0;
}

export async function leaseHolder(db: RedlineDb, vendorId: number): Promise<{ owner: string | null; expiresAt: string | null } | undefined> {
  return statements(db).holder.get(vendorId);
}

/**
 * When a vendor not excluded next falls due for this owner: its next poll, or its lease's expiry
 * when another poller holds it past that (null when nothing is scheduled).
 */
export async function nextClaimableAt(db: RedlineDb, owner: string, exclude: readonly number[] = [], slug?: string): Promise<string | null> {
  return statements(db).nextDue.get({ owner, slug: slug ?? null, exclude: JSON.stringify(exclude) })?.at ?? null;
}
