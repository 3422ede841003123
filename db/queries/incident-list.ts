import type { RedlineDb } from "@/db/driver/database";
import { conditionsOf, type Cursor, encodeCursor, statementShaped } from "@/db/driver/prepared";
import { changeKindCode, type ChangeKindName } from "@/lib/change-kinds";

export interface IncidentSummaryRow {
  id: number;
  vendorSlug: string;
  providerId: string;
  kind: "incident" | "maintenance";
  title: string;
  status: string | null;
  impact: string | null;
  startedAt: string | null;
  resolvedAt: string | null;
  presence: "listed" | "left-feed" | "deleted";
  firstSeenAt: string;
  lastChangedAt: string;
  versionCount: number;
  /** Where it sits in the list: its start, or when Redline first saw it. */
  timeline: string;
}

/** Which incidents to list; all conditions must hold. Impact, status and component are current. */
export interface IncidentListFilter {
  vendorIds?: readonly number[];
  impacts?: readonly string[];
  statuses?: readonly string[];
  kinds?: readonly ChangeKindName[];
  component?: string;
  since?: string;
  until?: string;
  query?: string;
  before?: Cursor | null;
}

const TIMELINE = "coalesce(i.started_at, i.first_seen_at)";


/** Incidents newest first (by start, else first seen), a page at a time, across vendors. */
export async function listIncidents(db: RedlineDb, filter: IncidentListFilter, limit: number): Promise<{ rows: IncidentSummaryRow[]; next: string | null }> {
  const { where, params, add, addList } = conditionsOf();
  const dialect = db.connection.dialect.queries;
  params.limit = limit + 1;
  addList(`i.vendor_id IN (${dialect.listedValues("vendorIds", "bigint")})`, "vendorIds", filter.vendorIds);
  addList(`coalesce(i.impact, 'unknown') IN (${dialect.listedValues("impacts")})`, "impacts", filter.impacts);
  addList(`i.status IN (${dialect.listedValues("statuses")})`, "statuses", filter.statuses);
  addList(
    `EXISTS (SELECT 1 FROM incident_versions v JOIN version_kinds k ON k.version_id = v.id WHERE v.incident_id = i.id AND k.kind IN (${dialect.listedValues("kinds", "bigint")}))`,
    "kinds",
    filter.kinds?.map(changeKindCode).filter((code) => code !== undefined),
  );
  add(
    `EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = i.id AND ${dialect.equalsIgnoringCase("c.name", "@component")})`,
    "component",
    filter.component,
  );
  add(`${TIMELINE} >= @since`, "since", filter.since);
  add(`${TIMELINE} < @until`, "until", filter.until);
  add(
    `i.id IN (${dialect.search.matchedIncidentIds})`,
    "query",
    filter.query === undefined ? undefined : dialect.search.parameter(filter.query),
  );
  if (filter.before) {
    where.push(`(${TIMELINE}, i.id) < (@beforeAt, @beforeId)`);
    params.beforeAt = filter.before.at;
    params.beforeId = filter.before.id;
  }
  const rows = await statementShaped<Record<string, string | number>, IncidentSummaryRow>(
    db.connection,
    `SELECT i.id, d.slug AS vendorSlug, i.provider_id AS providerId, i.kind, i.title, i.status, i.impact, i.started_at AS startedAt,
       i.resolved_at AS resolvedAt, i.presence, i.first_seen_at AS firstSeenAt, i.last_changed_at AS lastChangedAt,
       i.version_count AS versionCount, ${TIMELINE} AS timeline
     FROM incidents i JOIN vendors d ON d.id = i.vendor_id
     ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY ${TIMELINE} DESC, i.id DESC LIMIT @limit`,
  ).all(params);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? encodeCursor({ at: last.timeline, id: last.id }) : null };
}
