import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";
import { type Cursor, encodeCursor } from "@/db/queries/prepared";
import type { ChangeKindName } from "@/lib/change-kinds";

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
const cache = new WeakMap<Database.Database, Map<string, Database.Statement>>();

function prepare(sqlite: Database.Database, sql: string): Database.Statement {
  let statements = cache.get(sqlite);
  if (!statements) cache.set(sqlite, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = sqlite.prepare(sql)));
  return statement;
}

/** Incidents newest first (by start, else first seen), a page at a time, across vendors. */
export function listIncidents(db: RedlineDb, filter: IncidentListFilter, limit: number): { rows: IncidentSummaryRow[]; next: string | null } {
  const where: string[] = [];
  const params: Record<string, string | number> = { limit: limit + 1 };
  const add = (condition: string, name: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(condition);
    params[name] = value;
  };
  const list = (values: readonly (string | number)[] | undefined) => (values?.length ? JSON.stringify(values) : undefined);
  add("i.vendor_id IN (SELECT value FROM json_each(@vendorIds))", "vendorIds", list(filter.vendorIds));
  add("coalesce(i.impact, 'unknown') IN (SELECT value FROM json_each(@impacts))", "impacts", list(filter.impacts));
  add("i.status IN (SELECT value FROM json_each(@statuses))", "statuses", list(filter.statuses));
  add(
    "EXISTS (SELECT 1 FROM incident_versions v JOIN version_kinds k ON k.version_id = v.id WHERE v.incident_id = i.id AND k.kind IN (SELECT value FROM json_each(@kinds)))",
    "kinds",
    list(filter.kinds),
  );
  add("EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = i.id AND c.name = @component COLLATE NOCASE)", "component", filter.component);
  add(`${TIMELINE} >= @since`, "since", filter.since);
  add(`${TIMELINE} < @until`, "until", filter.until);
  add("i.id IN (SELECT rowid FROM incident_search WHERE incident_search MATCH @query)", "query", filter.query);
  if (filter.before) {
    where.push(`(${TIMELINE}, i.id) < (@beforeAt, @beforeId)`);
    params.beforeAt = filter.before.at;
    params.beforeId = filter.before.id;
  }
  const rows = prepare(
    db.$client,
    `SELECT i.id, d.slug AS vendorSlug, i.provider_id AS providerId, i.kind, i.title, i.status, i.impact, i.started_at AS startedAt,
       i.resolved_at AS resolvedAt, i.presence, i.first_seen_at AS firstSeenAt, i.last_changed_at AS lastChangedAt,
       i.version_count AS versionCount, ${TIMELINE} AS timeline
     FROM incidents i JOIN vendors d ON d.id = i.vendor_id
     ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""}
     ORDER BY ${TIMELINE} DESC, i.id DESC LIMIT @limit`,
  ).all(params) as IncidentSummaryRow[];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, next: rows.length > limit && last ? encodeCursor({ at: last.timeline, id: last.id }) : null };
}
