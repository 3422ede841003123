import type { Connection, RedlineDb } from "@/db/driver/database";
import { type Cursor, encodeCursor, statementsFor } from "@/db/driver/prepared";
import type { VendorRow } from "@/db/settings/vendors";
import type { IncidentFacts } from "@/lib/vendor-figures";

export interface IncidentListRow {
  id: number;
  providerId: string;
  kind: string;
  title: string;
  status: string | null;
  impact: string | null;
  startedAt: string | null;
  resolvedAt: string | null;
  presence: string;
  source: string;
  lastSeenAt: string;
  versionCount: number;
  lastChangedAt: string;
  firstSeenAt: string;
  postmortemAt: string | null;
}

export interface IncidentFilter {
  impact?: string;
  status?: string;
  component?: string;
  from?: string;
  to?: string;
  before?: Cursor | null;
}

const LIST_COLUMNS = `i.id, i.provider_id AS providerId, i.kind, i.title, i.status, i.impact, i.started_at AS startedAt,
  i.resolved_at AS resolvedAt, i.presence, i.source, i.last_seen_at AS lastSeenAt, i.version_count AS versionCount, i.last_changed_at AS lastChangedAt, i.first_seen_at AS firstSeenAt, i.postmortem_at AS postmortemAt`;

const VENDOR_INCIDENTS = (cast: string) => `SELECT ${LIST_COLUMNS} FROM incidents i
     WHERE i.vendor_id = @vendorId
       AND (@impact${cast} IS NULL OR coalesce(i.impact, 'unknown') = @impact)
       AND (@status${cast} IS NULL OR i.status = @status)
       AND (@from${cast} IS NULL OR coalesce(i.started_at, i.first_seen_at) >= @from)
       AND (@to${cast} IS NULL OR coalesce(i.started_at, i.first_seen_at) < @to)
       AND (@component${cast} IS NULL OR EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = i.id AND c.name = @component))
       AND (coalesce(i.started_at, i.first_seen_at), i.id) < (@beforeAt, @beforeId)
     ORDER BY coalesce(i.started_at, i.first_seen_at) DESC, i.id DESC LIMIT @limit`;

const statements = statementsFor((c: Connection) => ({
  vendor: c.prepare<[string], VendorRow>(
    `SELECT id, slug, name, platform, derived_with AS derivedWith, applied_observed_at AS appliedObservedAt, applied_source AS appliedSource,
       applied_hash AS appliedHash, created_at AS createdAt, url, interval_seconds AS intervalSeconds, enabled, origin, homepage,
       status_page_url AS statusPageUrl, hook_secret_hash AS hookSecretHash FROM vendors WHERE slug = ?`,
  ),
  facts: c.prepare<[number, string, string], Omit<IncidentFacts, "presence"> & { status: string | null; presence: string; source: string; lastSeenAt: string; lastChangedAt: string }>(
    `SELECT started_at AS startedAt, resolved_at AS resolvedAt, impact, postmortem_at AS postmortemAt, edits_after_resolution AS editsAfterResolution,
       status, presence, source, last_seen_at AS lastSeenAt, last_changed_at AS lastChangedAt
     FROM incidents WHERE vendor_id = ? AND kind = 'incident' AND started_at >= ? AND started_at < ?`,
  ),
  components: c.prepare<[number], { name: string; n: number }>(
    `SELECT name, count(*) AS n FROM incident_components WHERE vendor_id = ? GROUP BY name ORDER BY name LIMIT 500`,
  ),
  // A parameter first met in `IS NULL` may have no type the database can infer: `cast` names it.
  list: c.prepare<
    { vendorId: number; impact: string | null; status: string | null; component: string | null; from: string | null; to: string | null; beforeAt: string; beforeId: number; limit: number },
    IncidentListRow
  >(VENDOR_INCIDENTS(c.dialect.queries.textParameterCast)),
  range: c.prepare<{ vendorId: number }, { firstIncident: string | null; firstCapture: string | null; lastCapture: string | null; lastRun: string | null }>(
    `SELECT (SELECT min(coalesce(started_at, first_seen_at)) FROM incidents WHERE vendor_id = @vendorId) AS firstIncident,
       (SELECT min(observed_at) FROM captures WHERE vendor_id = @vendorId) AS firstCapture,
       (SELECT max(observed_at) FROM captures WHERE vendor_id = @vendorId) AS lastCapture,
       (SELECT max(last_observed_at) FROM captures WHERE vendor_id = @vendorId AND observations > 1) AS lastRun`,
  ),
  statuses: c.prepare<[number], { status: string }>(
    `SELECT DISTINCT status FROM incidents WHERE vendor_id = ? AND status IS NOT NULL ORDER BY status LIMIT 50`,
  ),
}));

export async function getVendor(db: RedlineDb, slug: string): Promise<VendorRow | undefined> {
  const row = await statements(db).vendor.get(slug);
  return row ? { ...row, enabled: Boolean(row.enabled) } : undefined;
}

/** A vendor's incidents that started in [from, to), with what their feed's rules need to say whether they ended. */
export async function listIncidentFacts(db: RedlineDb, vendorId: number, from: string, to: string): Promise<IncidentFacts[]> {
  return (await statements(db).facts.all(vendorId, from, to)).map((r) => ({
    startedAt: r.startedAt,
    resolvedAt: r.resolvedAt,
    impact: r.impact,
    postmortemAt: r.postmortemAt,
    editsAfterResolution: r.editsAfterResolution,
    // The version that recorded it gone is its last change.
    presence: { status: r.status, resolvedAt: r.resolvedAt, presence: r.presence, source: r.source, lastSeenAt: r.lastSeenAt, leftAt: r.presence === "listed" ? null : r.lastChangedAt },
  }));
}

/** The instants that bound what the archive holds of a vendor: its earliest incident or capture, its last observation. */
export async function getArchivedInstants(db: RedlineDb, vendorId: number): Promise<Array<string | null>> {
  const row = await statements(db).range.get({ vendorId });
  return row ? [row.firstIncident, row.firstCapture, row.lastCapture, row.lastRun] : [];
}

export async function listComponentNames(db: RedlineDb, vendorId: number): Promise<string[]> {
  return (await statements(db).components.all(vendorId)).map((r) => r.name);
}

export async function listStatuses(db: RedlineDb, vendorId: number): Promise<string[]> {
  return (await statements(db).statuses.all(vendorId)).map((r) => r.status);
}

/** A vendor's incidents, newest first, filtered, a page at a time. */
export async function listVendorIncidents(db: RedlineDb, vendorId: number, filter: IncidentFilter, limit: number): Promise<{ rows: IncidentListRow[]; next: string | null }> {
  const before = filter.before ?? { at: "9999-12-31T23:59:59.999Z", id: Number.MAX_SAFE_INTEGER };
  const rows = await statements(db).list.all({
    vendorId,
    impact: filter.impact ?? null,
    status: filter.status ?? null,
    component: filter.component ?? null,
    from: filter.from ?? null,
    to: filter.to ?? null,
    beforeAt: before.at,
    beforeId: before.id,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const lastAt = last ? (last.startedAt ?? last.firstSeenAt) : null;
  return { rows: page, next: rows.length > limit && last && lastAt ? encodeCursor({ at: lastAt, id: last.id }) : null };
}
