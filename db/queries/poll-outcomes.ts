import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { type PollOutcomes, pollingNotice } from "@/lib/poll-reachability";

const POLLED = "v.enabled = TRUE AND v.url IS NOT NULL";

const statements = statementsFor((c: Connection) => ({
  counts: c.prepare<[], { vendors: number; ok: number | null; failed: number | null }>(
    `SELECT count(*) AS "vendors", sum(CASE WHEN p.last_outcome = 'ok' THEN 1 ELSE 0 END) AS "ok",
       sum(CASE WHEN p.last_outcome IS NOT NULL AND p.last_outcome <> 'ok' THEN 1 ELSE 0 END) AS "failed"
     FROM vendors v LEFT JOIN poll_state p ON p.vendor_id = v.id WHERE ${POLLED}`,
  ),
  lastError: c.prepare<[], { error: string | null }>(
    `SELECT p.last_error AS "error" FROM poll_state p JOIN vendors v ON v.id = p.vendor_id
     WHERE ${POLLED} AND p.last_outcome <> 'ok' ORDER BY p.last_poll_at DESC LIMIT 1`,
  ),
}));

/**
 * The latest poll outcome of every polled vendor, counted, as the pollers recorded it: the web
 * process reads here what the pollers, which may be other processes, last saw.
 */
export async function countPollOutcomes(db: RedlineDb): Promise<PollOutcomes> {
  const st = statements(db);
  const counts = await st.counts.get();
  const outcomes = { vendors: Number(counts?.vendors ?? 0), ok: Number(counts?.ok ?? 0), failed: Number(counts?.failed ?? 0) };
  const lastError = outcomes.ok === 0 && outcomes.failed > 0 ? ((await st.lastError.get())?.error ?? null) : null;
  return { ...outcomes, lastError };
}

/** The pages' banner while every poll fails (lib/poll-reachability.ts); null while any succeeds. */
export async function readPollingNotice(db: RedlineDb): Promise<string | null> {
  return pollingNotice(await countPollOutcomes(db));
}
