import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementShaped, statementsFor } from "@/db/driver/prepared";
import type { pollState, sources } from "@/db/schema";
import { type StoredVendor, VENDOR_COLUMNS, vendorFromRow, type VendorRow } from "@/db/settings/vendors";

export type SourceRow = typeof sources.$inferSelect;
/** The schedule and last outcome; the lease columns are db/operations/poll-leases.ts's alone. */
export type PollStateRow = Omit<typeof pollState.$inferSelect, "leaseOwner" | "leaseExpiresAt">;

const SOURCE_COLUMNS = `vendor_id AS vendorId, url, platform, etag, last_modified AS lastModified,
  last_body_hash AS lastBodyHash, last_fetched_at AS lastFetchedAt, last_status AS lastStatus`;

/** Writes a PollStateRow's columns; db/operations/poll-leases.ts's settle extends its update with the lease's end. */
export const SAVE_POLL_STATE = `INSERT INTO poll_state (vendor_id, next_poll_at, last_poll_at, last_outcome, last_error, consecutive_failures, backoff_seconds)
     VALUES (@vendorId, @nextPollAt, @lastPollAt, @lastOutcome, @lastError, @consecutiveFailures, @backoffSeconds)
     ON CONFLICT (vendor_id) DO UPDATE SET next_poll_at = excluded.next_poll_at, last_poll_at = excluded.last_poll_at,
       last_outcome = excluded.last_outcome, last_error = excluded.last_error,
       consecutive_failures = excluded.consecutive_failures, backoff_seconds = excluded.backoff_seconds`;

/** Polling reads and writes these for every endpoint of every vendor: prepared once per connection. */
const statements = statementsFor((c: Connection) => ({
  pollable: c.prepare<[], StoredVendor>(`SELECT ${VENDOR_COLUMNS} FROM vendors WHERE enabled = TRUE AND url IS NOT NULL ORDER BY id`),
  pollableSlug: c.prepare<[string], StoredVendor>(`SELECT ${VENDOR_COLUMNS} FROM vendors WHERE enabled = TRUE AND url IS NOT NULL AND slug = ? ORDER BY id`),
  getPollState: c.prepare<[number], PollStateRow>(
    `SELECT vendor_id AS vendorId, next_poll_at AS nextPollAt, last_poll_at AS lastPollAt, last_outcome AS lastOutcome,
       last_error AS lastError, consecutive_failures AS consecutiveFailures, backoff_seconds AS backoffSeconds
     FROM poll_state WHERE vendor_id = ?`,
  ),
  savePollState: c.prepare<PollStateRow>(SAVE_POLL_STATE),
  getSource: c.prepare<[number, string], Omit<SourceRow, "id">>(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE vendor_id = ? AND url = ?`),
  listSources: c.prepare<[number], Omit<SourceRow, "id">>(`SELECT ${SOURCE_COLUMNS} FROM sources WHERE vendor_id = ?`),
  saveSource: c.prepare<Omit<SourceRow, "id">>(
    `INSERT INTO sources (vendor_id, url, platform, etag, last_modified, last_body_hash, last_fetched_at, last_status)
     VALUES (@vendorId, @url, @platform, @etag, @lastModified, @lastBodyHash, @lastFetchedAt, @lastStatus)
     ON CONFLICT (vendor_id, url) DO UPDATE SET platform = excluded.platform, etag = excluded.etag,
       last_modified = excluded.last_modified, last_body_hash = excluded.last_body_hash,
       last_fetched_at = excluded.last_fetched_at, last_status = excluded.last_status`,
  ),
  requestPoll: c.prepare<[number, string]>(c.dialect.operations.requestPoll),
}));

/** Every enabled vendor with a URL (or the one asked for). */
export async function listPollableVendors(db: RedlineDb, slug?: string): Promise<VendorRow[]> {
  const s = statements(db);
  const rows = slug === undefined ? await s.pollable.all() : await s.pollableSlug.all(slug);
  return rows.map(vendorFromRow);
}

export async function getPollState(db: RedlineDb, vendorId: number): Promise<PollStateRow | undefined> {
  return statements(db).getPollState.get(vendorId);
}

export async function savePollState(db: RedlineDb, state: PollStateRow): Promise<void> {
  await statements(db).savePollState.run(state);
}

export async function getSource(db: RedlineDb, vendorId: number, url: string): Promise<Omit<SourceRow, "id"> | undefined> {
  return statements(db).getSource.get(vendorId, url);
}

/** Every source of a vendor, by URL: what a round of its endpoints reads before fetching them. */
export async function listSources(db: RedlineDb, vendorId: number): Promise<Map<string, Omit<SourceRow, "id">>> {
  return new Map((await statements(db).listSources.all(vendorId)).map((s) => [s.url, s]));
}

export async function saveSource(db: RedlineDb, source: Omit<SourceRow, "id">): Promise<void> {
  await statements(db).saveSource.run(source);
}

/** The incidents the vendor still lists in these statuses, whose pages may hold a postmortem to follow. */
export async function listListedIncidentsInStatus(db: RedlineDb, vendorId: number, statuses: readonly string[]): Promise<Array<{ providerId: string; status: string | null }>> {
  if (statuses.length === 0) return [];
  const sql = `SELECT provider_id AS providerId, status FROM incidents WHERE vendor_id = ? AND presence = 'listed' AND status IN (${statuses.map(() => "?").join(", ")})`;
  return statementShaped<unknown[], { providerId: string; status: string | null }>(db.connection, sql).all(vendorId, ...statuses);
}

/** Make a vendor due now: the poller, which looks at the schedule every second, polls it next. */
export async function requestPollNow(db: RedlineDb, vendorId: number, now: string): Promise<void> {
  await statements(db).requestPoll.run(vendorId, now);
}
