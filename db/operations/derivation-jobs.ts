import type { Connection, OperationsDialect, RedlineDb } from "@/db/driver/database";
import { type CaptureKey, compareCaptureKeys } from "@/db/record/prior-state";
import { statementsFor } from "@/db/driver/prepared";
import type { DerivationJobStatus } from "@/db/schema";
import { transact } from "@/db/driver/transaction";

export interface DerivationJob {
  id: number;
  vendorId: number;
  vendorSlug: string;
  reason: string;
  from: CaptureKey | null;
  status: DerivationJobStatus;
  requests: number;
  scratchPath: string | null;
  capturesTotal: number;
  capturesDone: number;
  incidentsSwapped: number;
  longestHoldMs: number;
  error: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
  leaseOwner: string | null;
  leaseUntil: string | null;
}

interface JobRow extends Omit<DerivationJob, "from"> {
  fromObservedAt: string | null;
  fromSource: string | null;
  fromHash: string | null;
}

const COLUMNS = `j.id, j.vendor_id AS vendorId, v.slug AS vendorSlug, j.reason, j.from_observed_at AS fromObservedAt,
  j.from_source AS fromSource, j.from_hash AS fromHash, j.status, j.requests, j.scratch_path AS scratchPath,
  j.captures_total AS capturesTotal, j.captures_done AS capturesDone, j.incidents_swapped AS incidentsSwapped, j.longest_hold_ms AS longestHoldMs,
  j.error, j.created_at AS createdAt, j.updated_at AS updatedAt, j.finished_at AS finishedAt,
  j.lease_owner AS leaseOwner, j.lease_until AS leaseUntil`;
const ACTIVE = "('queued', 'building', 'swapping')";

/** The job a claim takes: the oldest active one no live worker holds (or this owner's), of one vendor or any. */
const CLAIMABLE = `j.status IN ${ACTIVE} AND (j.lease_until IS NULL OR j.lease_until < @now OR j.lease_owner = @owner)`;

function claimSql(d: OperationsDialect): string {
  return `UPDATE derivation_jobs SET lease_owner = @owner, lease_until = @until, updated_at = @now
     WHERE id = (SELECT j.id FROM derivation_jobs j WHERE (${d.typed("@vendorId", "bigint")} IS NULL OR j.vendor_id = @vendorId) AND ${CLAIMABLE} ORDER BY j.id LIMIT 1${d.skipLocked()})
     RETURNING id`;
}

/** A job's longest write-lock hold, raised to the parameter's if that is longer. */
const longestHold = (d: OperationsDialect, parameter: string): string => d.greatest("longest_hold_ms", d.typed(parameter, "bigint"));

const statements = statementsFor((c: Connection) => ({
  active: c.prepare<[number], JobRow>(`SELECT ${COLUMNS} FROM derivation_jobs j JOIN vendors v ON v.id = j.vendor_id WHERE j.vendor_id = ? AND j.status IN ${ACTIVE}`),
  byId: c.prepare<[number], JobRow>(`SELECT ${COLUMNS} FROM derivation_jobs j JOIN vendors v ON v.id = j.vendor_id WHERE j.id = ?`),
  insert: c.prepare<[number, string, string | null, string | null, string | null, string, string], { id: number }>(
    `INSERT INTO derivation_jobs (vendor_id, reason, from_observed_at, from_source, from_hash, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'queued', ?, ?) RETURNING id`,
  ),
  setFrom: c.prepare<[string | null, string | null, string | null, string, string, number]>(
    "UPDATE derivation_jobs SET from_observed_at = ?, from_source = ?, from_hash = ?, reason = ?, updated_at = ?, requests = requests + 1 WHERE id = ?",
  ),
  askAgain: c.prepare<[string, number]>("UPDATE derivation_jobs SET requests = requests + 1, updated_at = ? WHERE id = ?"),
  finishIf: c.prepare<[string, string, number, number]>(
    "UPDATE derivation_jobs SET status = 'done', finished_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ? AND requests = ?",
  ),
  // The pick and the lease in one statement. Where claims run side by side, the pick passes over the job another is taking.
  claim: c.prepare<{ owner: string; until: string; now: string; vendorId: number | null }, { id: number }>(claimSql(c.dialect.operations)),
  lease: c.prepare<[string, string, string, number, string, string]>(
    `UPDATE derivation_jobs SET lease_owner = ?, lease_until = ?, updated_at = ?
     WHERE id = ? AND (lease_until IS NULL OR lease_until < ? OR lease_owner = ?)`,
  ),
  progress: c.prepare<{ id: number; status: string; scratchPath: string | null; capturesTotal: number; capturesDone: number; incidentsSwapped: number; longestHoldMs: number; updatedAt: string }>(
    `UPDATE derivation_jobs SET status = @status, scratch_path = @scratchPath, captures_total = @capturesTotal,
       captures_done = @capturesDone, incidents_swapped = @incidentsSwapped, longest_hold_ms = ${longestHold(c.dialect.operations, "@longestHoldMs")},
       updated_at = @updatedAt WHERE id = @id`,
  ),
  hold: c.prepare<[number, number]>(
    `UPDATE derivation_jobs SET longest_hold_ms = ${longestHold(c.dialect.operations, "?")} WHERE id = ?`,
  ),
  finish: c.prepare<[string, string | null, string, string, number]>(
    "UPDATE derivation_jobs SET status = ?, error = ?, finished_at = ?, updated_at = ?, lease_owner = NULL, lease_until = NULL WHERE id = ?",
  ),
  release: c.prepare<[string, number, string]>("UPDATE derivation_jobs SET lease_owner = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_owner = ?"),
  recent: c.prepare<[number], JobRow>(`SELECT ${COLUMNS} FROM derivation_jobs j JOIN vendors v ON v.id = j.vendor_id ORDER BY j.id DESC LIMIT ?`),
}));

function toJob(row: JobRow | undefined): DerivationJob | undefined {
  if (!row) return undefined;
  const { fromObservedAt, fromSource, fromHash, ...rest } = row;
  const from = fromObservedAt !== null && fromSource !== null && fromHash !== null ? { observedAt: fromObservedAt, source: fromSource, hash: fromHash } : null;
  return { ...rest, from };
}

export async function getActiveJob(db: RedlineDb, vendorId: number): Promise<DerivationJob | undefined> {
  return toJob(await statements(db).active.get(vendorId));
}

export async function getJob(db: RedlineDb, id: number): Promise<DerivationJob | undefined> {
  return toJob(await statements(db).byId.get(id));
}

/**
 * Ask for the vendor's history to be derived again from `from` (null: from its first capture).
 * A job already waiting or running for the vendor is widened to start no later than that.
 */
export async function queueJob(db: RedlineDb, vendorId: number, reason: string, from: CaptureKey | null, now = new Date().toISOString()): Promise<DerivationJob> {
  const st = statements(db);
  // Read, decide, write: two processes asking at once must not both insert (one active job per vendor).
  return transact(db, async () => {
    const active = toJob(await st.active.get(vendorId));
    if (!active) {
      const row = await st.insert.get(vendorId, reason, from?.observedAt ?? null, from?.source ?? null, from?.hash ?? null, now, now);
      if (!row) throw new Error(`store: unable to queue a derivation job for vendor ${vendorId}`);
      return toJob(await st.byId.get(row.id)) as DerivationJob;
    }
    const earlier = active.from !== null && (from === null || compareCaptureKeys(from, active.from) < 0);
    if (earlier) await st.setFrom.run(from?.observedAt ?? null, from?.source ?? null, from?.hash ?? null, from === null ? reason : active.reason, now, active.id);
    else await st.askAgain.run(now, active.id);
    return toJob(await st.byId.get(active.id)) as DerivationJob;
  }, { immediate: true });
}

/**
 * Take the oldest job no live worker holds (or this owner's), for `leaseMs`. Several processes
 * may run jobs against one database: the pick and the lease are one statement, on SQLite in an
 * immediate transaction (one writer at a time); on PostgreSQL its pick takes `FOR UPDATE SKIP
 * LOCKED`, so concurrent claims pass over each other's job instead of sharing it.
 */
export async function claimJob(db: RedlineDb, owner: string, leaseMs: number, vendorId?: number, nowMs = Date.now()): Promise<DerivationJob | undefined> {
  const st = statements(db);
  const now = new Date(nowMs).toISOString();
  const until = new Date(nowMs + leaseMs).toISOString();
  const claim = async () => {
    const claimed = await st.claim.get({ owner, until, now, vendorId: vendorId ?? null });
    return claimed ? toJob(await st.byId.get(claimed.id)) : undefined;
  };
  return db.connection.dialect.operations.claimsTakeWriteLock ? transact(db, claim, { immediate: true }) : claim();
}

/** Keep holding a job; false when another worker took it over (the lease ran out). */
export async function renewLease(db: RedlineDb, id: number, owner: string, leaseMs: number, nowMs = Date.now()): Promise<boolean> {
  const now = new Date(nowMs).toISOString();
  return (await statements(db).lease.run(owner, new Date(nowMs + leaseMs).toISOString(), now, id, now, owner)).changes === 1;
}

/** Let go of a job before its lease ends (a worker stopping): the next worker resumes it at once. */
export async function releaseJob(db: RedlineDb, id: number, owner: string): Promise<void> {
  await statements(db).release.run(new Date().toISOString(), id, owner);
}

/** Note how long one of the job's transactions held the write lock. */
export async function noteJobHold(db: RedlineDb, id: number, ms: number): Promise<void> {
  await statements(db).hold.run(Math.round(ms), id);
}

export async function saveJobProgress(
  db: RedlineDb,
  job: Pick<DerivationJob, "id" | "status" | "scratchPath" | "capturesTotal" | "capturesDone" | "incidentsSwapped" | "longestHoldMs">,
): Promise<void> {
  const { id, status, scratchPath, capturesTotal, capturesDone, incidentsSwapped, longestHoldMs } = job;
  await statements(db).progress.run({ id, status, scratchPath, capturesTotal, capturesDone, incidentsSwapped, longestHoldMs, updatedAt: new Date().toISOString() });
}

/** Mark a job done unless it was asked for again since `requests` was read; false then. */
export async function finishJobIfUnchanged(db: RedlineDb, id: number, requests: number): Promise<boolean> {
  const now = new Date().toISOString();
  return (await statements(db).finishIf.run(now, now, id, requests)).changes === 1;
}

export async function finishJob(db: RedlineDb, id: number, status: "done" | "failed", error: string | null = null): Promise<void> {
  const now = new Date().toISOString();
  await statements(db).finish.run(status, error, now, now, id);
}

/** The most recent jobs, newest first: what the operator page and `rederive --status` show. */
export async function listRecentJobs(db: RedlineDb, limit = 20): Promise<DerivationJob[]> {
  return (await statements(db).recent.all(limit)).flatMap((r) => toJob(r) ?? []);
}
