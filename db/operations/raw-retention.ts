import type { Connection, OperationsDialect, RedlineDb } from "@/db/driver/database";
import { dropUnusedBodies } from "@/db/history/body-pruning";
import { statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";

/**
 * Raw-body retention (docs/decisions/0017-raw-retention.md): the bodies of captures last observed
 * before a horizon are deleted; the capture rows stay, marked, and everything derived stays.
 */

export interface RetentionOptions {
  /** Bodies of captures last observed before this instant (ISO 8601) go. */
  before: string;
  /** Only this vendor's captures; every vendor's otherwise. */
  vendorId?: number;
  /** Captures per transaction: the poller may be writing meanwhile. */
  batch?: number;
  now?: string;
}

export interface RetentionSummary {
  /** Capture rows that lost their raw body. */
  captures: number;
  /** Bodies deleted (a body still used by a kept capture stays). */
  bodies: number;
  /** Kept bodies stored whole again because the body they were a delta of was deleted. */
  rebased: number;
}

const DEFAULT_BATCH = 500;

/**
 * Each source's latest capture with a body keeps it whatever its age: it is what the source serves
 * now (polls answered "not modified" confirm it) and the base of the source's next delta. A vendor
 * being rebuilt aside keeps its bodies until the next run: its scratch may still read them.
 */
const expiredSql = (d: OperationsDialect) => `SELECT c.id, c.hash AS bodyHash FROM captures c
     WHERE c.body_id IS NOT NULL AND c.id > @afterId AND coalesce(c.last_observed_at, c.observed_at) < @before
       AND (${d.typed("@vendorId", "bigint")} IS NULL OR c.vendor_id = @vendorId)
       AND NOT EXISTS (SELECT 1 FROM derivation_jobs j WHERE j.vendor_id = c.vendor_id AND j.status IN ('building', 'swapping'))
       AND c.id <> (SELECT l.id FROM captures l${d.capturesByIdentity} WHERE l.vendor_id = c.vendor_id AND l.source = c.source AND l.body_id IS NOT NULL
                    ORDER BY l.observed_at DESC, l.id DESC LIMIT 1)
     ORDER BY c.id LIMIT @batch`;

const statements = statementsFor((c: Connection) => ({
  expired: c.prepare<{ before: string; vendorId: number | null; afterId: number; batch: number }, { id: number; bodyHash: string }>(expiredSql(c.dialect.operations)),
  mark: c.prepare<[string, number]>("UPDATE captures SET body_id = NULL, body_pruned_at = ? WHERE id = ? AND body_id IS NOT NULL"),
  keptFrom: c.prepare<{ v: number }, { keptFrom: string | null; pruned: number; lastPrunedAt: string | null }>(
    `SELECT (SELECT min(observed_at) FROM captures WHERE vendor_id = @v AND body_id IS NOT NULL) AS keptFrom,
       (SELECT count(*) FROM captures WHERE vendor_id = @v AND body_pruned_at IS NOT NULL) AS pruned,
       (SELECT max(body_pruned_at) FROM captures WHERE vendor_id = @v AND body_pruned_at IS NOT NULL) AS lastPrunedAt`,
  ),
  anyPruned: c.prepare<[number], { observedAt: string }>(
    "SELECT observed_at AS observedAt FROM captures WHERE vendor_id = ? AND body_pruned_at IS NOT NULL ORDER BY observed_at DESC LIMIT 1",
  ),
}));

/** Begins the error of a re-derivation refused because raw bodies it needs were pruned. */
export const RETENTION_REFUSAL = "retention:";

/** Why rebuilding the vendor's history from `fromObservedAt` (null: its first capture) would lose history, or null when it would not. */
export async function retentionRefusal(db: RedlineDb, vendorId: number, fromObservedAt: string | null): Promise<string | null> {
  const latest = await latestPrunedObservation(db, vendorId);
  if (latest === null || (fromObservedAt !== null && latest < fromObservedAt)) return null;
  const { keptFrom } = await vendorRetention(db, vendorId);
  return (
    `${RETENTION_REFUSAL} the raw bodies of its captures up to ${latest} were deleted by retention (REDLINE_KEEP_RAW_DAYS or prune-raw); ` +
    `deriving again from a capture before them would need those bodies, so its history stays as it was derived` +
    (keptFrom === null ? "" : ` (raw captures are kept from ${keptFrom})`)
  );
}

/** The instant `days` days before `now`: captures last observed before it are past retention. */
export function retentionHorizon(days: number, now = new Date()): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString();
}

/**
 * Delete the raw bodies of captures last observed before `before`, in short transactions. Chains
 * stay restorable (dropUnusedBodies stores whole what depended on a deleted body). Resumable: what
 * a crash left is found again by the next run.
 */
export async function pruneRawBodies(db: RedlineDb, options: RetentionOptions): Promise<RetentionSummary> {
  const summary: RetentionSummary = { captures: 0, bodies: 0, rebased: 0 };
  let afterId = 0;
  for (;;) {
    const next = await pruneRawBatch(db, options, afterId, summary);
    if (next === null) return summary;
    afterId = next;
  }
}

/**
 * One transaction of pruneRawBodies: the expired captures after `afterId`, added to `summary`.
 * Returns where the next batch starts, or null when none is left.
 */
export async function pruneRawBatch(db: RedlineDb, options: RetentionOptions, afterId: number, summary: RetentionSummary): Promise<number | null> {
  const st = statements(db);
  const now = options.now ?? new Date().toISOString();
  return transact(db, async () => {
    const rows = await st.expired.all({ before: options.before, vendorId: options.vendorId ?? null, afterId, batch: options.batch ?? DEFAULT_BATCH });
    const last = rows[rows.length - 1];
    if (last === undefined) return null;
    for (const row of rows) summary.captures += (await st.mark.run(now, row.id)).changes;
    const dropped = await dropUnusedBodies(db, new Set(rows.map((r) => r.bodyHash)));
    summary.bodies += dropped.dropped;
    summary.rebased += dropped.rebased;
    return last.id;
  }, { immediate: true });
}

export interface VendorRetention {
  /** The first observation whose raw body is kept (null: none is). */
  keptFrom: string | null;
  /** Capture rows whose raw body retention removed. */
  prunedCaptures: number;
  lastPrunedAt: string | null;
}

/** What retention removed of a vendor's raw captures, and from when they are kept. */
export async function vendorRetention(db: RedlineDb, vendorId: number): Promise<VendorRetention> {
  const row = await statements(db).keptFrom.get({ v: vendorId });
  return { keptFrom: row?.keptFrom ?? null, prunedCaptures: row?.pruned ?? 0, lastPrunedAt: row?.lastPrunedAt ?? null };
}

/** The latest observation of the vendor whose raw body retention removed, if any was. */
export async function latestPrunedObservation(db: RedlineDb, vendorId: number): Promise<string | null> {
  return (await statements(db).anyPruned.get(vendorId))?.observedAt ?? null;
}
