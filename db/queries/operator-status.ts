import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";

export interface VendorPollStatus {
  slug: string;
  name: string;
  platform: string;
  enabled: boolean;
  url: string | null;
  lastPollAt: string | null;
  lastOutcome: string | null;
  lastError: string | null;
  consecutiveFailures: number;
  backoffSeconds: number;
  nextPollAt: string | null;
  pushPollDueAt: string | null;
  captures: number;
  failedCaptures: number;
  versions: number;
}

const statements = preparedFor((sqlite) => ({
  status: sqlite.prepare<[], Omit<VendorPollStatus, "enabled"> & { enabled: number }>(
    `SELECT v.slug, v.name, v.platform, v.enabled, v.url, p.last_poll_at AS lastPollAt, p.last_outcome AS lastOutcome, p.last_error AS lastError,
       coalesce(p.consecutive_failures, 0) AS consecutiveFailures, coalesce(p.backoff_seconds, 0) AS backoffSeconds, p.next_poll_at AS nextPollAt,
       (SELECT due_at FROM push_polls q WHERE q.vendor_id = v.id) AS pushPollDueAt,
       (SELECT count(*) FROM captures c WHERE c.vendor_id = v.id) AS captures,
       (SELECT count(*) FROM captures c WHERE c.vendor_id = v.id AND c.outcome IN ('failed', 'invalid')) AS failedCaptures,
       (SELECT count(*) FROM incident_versions iv WHERE iv.vendor_id = v.id) AS versions
     FROM vendors v LEFT JOIN poll_state p ON p.vendor_id = v.id
     ORDER BY (p.last_outcome IS NOT NULL AND p.last_outcome <> 'ok') DESC, lower(v.name), v.slug`,
  ),
}));

/** Every vendor's polling: the last poll and its error, the backoff, what is next, and what was kept; failing ones first. */
export function listVendorPollStatus(db: RedlineDb): VendorPollStatus[] {
  return statements(db).status.all().map((r) => ({ ...r, enabled: r.enabled === 1 }));
}
