import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { SourceProfile } from "@/lib/derive/source-profile";
import { feedKindOf, type IncidentNowFacts, type SourceNowFacts } from "@/lib/vendor-now";

export interface UnresolvedIncidentRow extends IncidentNowFacts {
  vendorId: number;
  id: number;
  providerId: string;
  kind: string;
  title: string;
  impact: string | null;
  startedAt: string | null;
  source: string;
}

/**
 * Unresolved incidents of one vendor alike for the Now rules (listed by one source, of one kind),
 * counted, with the worst impact: listed and unresolved, only their source's feed tells them apart.
 */
export interface UnresolvedGroup extends IncidentNowFacts {
  vendorId: number;
  kind: string;
  source: string;
  impact: string | null;
  count: number;
}

/** The format a platform name reads, as its declaration states it; null for a name Redline does not know. */
export type ProfileOf = (platform: string) => SourceProfile | null;

const UNRESOLVED = `i.presence = 'listed' AND i.resolved_at IS NULL AND coalesce(i.status, '') NOT IN ('resolved', 'completed', 'postmortem', 'closed')`;

const GROUPS = (indexedBy: string) => `SELECT i.vendor_id AS vendorId, i.source, i.kind, max(i.status) AS status, NULL AS resolvedAt, 'listed' AS presence,
       max(i.last_seen_at) AS lastSeenAt, NULL AS leftAt, count(*) AS count,
       CASE max(CASE i.impact WHEN 'critical' THEN 4 WHEN 'major' THEN 3 WHEN 'minor' THEN 2 WHEN 'none' THEN 1 ELSE 0 END)
         WHEN 4 THEN 'critical' WHEN 3 THEN 'major' WHEN 2 THEN 'minor' WHEN 1 THEN 'none' ELSE NULL END AS impact
     FROM incidents i ${indexedBy}WHERE ${UNRESOLVED} GROUP BY i.vendor_id, i.source, i.kind`;

const UNRESOLVED_ROWS = (nullsLast: string) => `SELECT i.vendor_id AS vendorId, i.id, i.provider_id AS providerId, i.kind, i.title, i.status, i.impact,
       i.started_at AS startedAt, i.resolved_at AS resolvedAt, i.presence, i.source, i.last_seen_at AS lastSeenAt, NULL AS leftAt
     FROM incidents i WHERE i.vendor_id = ? AND ${UNRESOLVED} ORDER BY i.started_at DESC${nullsLast} LIMIT 200`;

const statements = statementsFor((c: Connection) => ({
  // A planner without statistics may scan every listed incident (incidents_listed_seen) for the few unresolved ones.
  groups: c.prepare<[], UnresolvedGroup>(GROUPS(c.dialect.queries.indexedBy("incidents_open"))),
  unresolved: c.prepare<[number], UnresolvedIncidentRow>(UNRESOLVED_ROWS(c.dialect.queries.nullsLast)),
  // A skip scan of captures_identity: one seek per source, however many captures each has.
  nextSource: c.prepare<[number, string], { source: string }>(
    `SELECT source FROM captures WHERE vendor_id = ? AND source > ? ORDER BY source LIMIT 1`,
  ),
  lastGood: c.prepare<[number, string], { at: string }>(
    `SELECT coalesce(last_observed_at, observed_at) AS at FROM captures WHERE vendor_id = ? AND source = ? AND outcome IN ('ok', 'not-modified')
     ORDER BY observed_at DESC LIMIT 1`,
  ),
  lastAttempt: c.prepare<[number, string], { at: string; outcome: string; platform: string }>(
    `SELECT coalesce(last_observed_at, observed_at) AS at, outcome, platform FROM captures WHERE vendor_id = ? AND source = ?
     ORDER BY observed_at DESC LIMIT 1`,
  ),
}));

const GOOD: ReadonlySet<string> = new Set(["ok", "not-modified"]);

/** Every vendor's unresolved incidents as groups the Now rules treat alike, by vendor id: what the vendor list needs. */
export async function listUnresolvedGroups(db: RedlineDb): Promise<Map<number, UnresolvedGroup[]>> {
  const byVendor = new Map<number, UnresolvedGroup[]>();
  for (const row of await statements(db).groups.all()) {
    const rows = byVendor.get(row.vendorId);
    if (rows) rows.push(row);
    else byVendor.set(row.vendorId, [row]);
  }
  return byVendor;
}

/** One vendor's unresolved incidents, newest first (at most 200): what its profile lists. */
export async function listUnresolvedIncidents(db: RedlineDb, vendorId: number): Promise<UnresolvedIncidentRow[]> {
  return statements(db).unresolved.all(vendorId);
}

/** Each source of a vendor with its last good capture, its last attempt, and what its format can tell. */
export async function listSourceStandings(db: RedlineDb, vendorId: number, profileOf: ProfileOf): Promise<SourceNowFacts[]> {
  const st = statements(db);
  const standings: SourceNowFacts[] = [];
  let after = "";
  for (let guard = 0; guard < 1000; guard += 1) {
    const next = await st.nextSource.get(vendorId, after);
    if (!next) break;
    after = next.source;
    const attempt = await st.lastAttempt.get(vendorId, next.source);
    const profile = attempt ? profileOf(attempt.platform) : null;
    standings.push({
      source: next.source,
      feed: profile ? feedKindOf(profile) : null,
      lastGoodAt: attempt && GOOD.has(attempt.outcome) ? attempt.at : ((await st.lastGood.get(vendorId, next.source))?.at ?? null),
      lastAttemptAt: attempt?.at ?? null,
      lastOutcome: attempt?.outcome ?? null,
    });
  }
  return standings;
}

/** The end of a source's last good capture (read, or unchanged since); null when it never had one. */
export async function lastGoodCaptureAt(db: RedlineDb, vendorId: number, source: string): Promise<string | null> {
  return (await statements(db).lastGood.get(vendorId, source))?.at ?? null;
}
