import type { Connection, QueriesDialect, RedlineDb } from "@/db/driver/database";
import { conditionsOf, type Cursor, encodeCursor, statementShaped } from "@/db/driver/prepared";
import type { Change } from "@/lib/change";
import { changeKindCode, type ChangeKindName } from "@/lib/change-kinds";
import { currentSummarizer, type Summarizer } from "@/lib/summarize";
import { unpackVersionContent, unpackVersionText, type VersionContent } from "@/db/history/version-content";
import { withFreshText } from "@/db/history/version-text";

export interface ChangeRow {
  versionId: number;
  seq: number;
  observedAt: string;
  kinds: ChangeKindName[];
  summary: string;
  headline: string;
  providerId: string;
  title: string;
  impact: string | null;
  status: string | null;
  incidentKind: string;
  vendorSlug: string;
  vendorName: string;
  /** The incident as of that version: a heading says what it was then, not what it is now. */
  versionTitle: string;
  versionImpact: string | null;
  versionKind: string;
}

/** A change with its field changes: what feeds and the API show. */
export interface ChangeDetailRow extends ChangeRow {
  changes: Change[];
}

export interface ChangePage<T extends ChangeRow = ChangeRow> {
  rows: T[];
  /** Cursor of the next (older) page, or null at the end. */
  next: string | null;
}

/**
 * Which changes to list. Impact, status and component are the incident's current ones; since
 * and until bound the observation time; `query` is an FTS5 query over the incident's text.
 */
export interface ChangeFilter {
  vendorId?: number;
  incidentId?: number;
  kinds?: readonly ChangeKindName[];
  impacts?: readonly string[];
  statuses?: readonly string[];
  component?: string;
  /** Any of these components (the narrowing of a watchlist member). */
  components?: readonly string[];
  since?: string;
  until?: string;
  query?: string;
  before?: Cursor | null;
  /** A watchlist's vendors, each whole (components null) or narrowed to incidents affecting those components. */
  watch?: readonly WatchScope[];
}

export interface WatchScope {
  vendorId: number;
  components: readonly string[] | null;
}

interface StoredChange extends Omit<ChangeRow, "kinds" | "summary" | "headline" | "versionTitle" | "versionImpact" | "versionKind"> {
  kinds: string;
  content: Buffer;
  incidentId: number;
  textVersion: number;
}

interface RawChange extends Omit<ChangeRow, "kinds"> {
  kinds: string;
  changes?: Change[];
  incidentId: number;
  textVersion: number;
}

const COLUMNS = `v.id AS versionId, v.seq, v.observed_at AS observedAt, v.kinds, v.content, i.provider_id AS providerId,
  i.title, i.impact, i.status, i.kind AS incidentKind, d.slug AS vendorSlug, d.name AS vendorName,
  v.incident_id AS incidentId, v.text_version AS textVersion`;
const END = { at: "9999-12-31T23:59:59.999Z", id: Number.MAX_SAFE_INTEGER };

type Params = Record<string, string | number>;

/** The filter's conditions on `v` (the version) and `i` (its incident), with their parameters. */
function conditions(dialect: QueriesDialect, filter: ChangeFilter): { sql: string; params: Params } {
  const { where, params, add, addList } = conditionsOf();
  add("v.vendor_id = @vendorId", "vendorId", filter.vendorId);
  add("v.incident_id = @incidentId", "incidentId", filter.incidentId);
  addList(`coalesce(i.impact, 'unknown') IN (${dialect.listedValues("impacts")})`, "impacts", filter.impacts);
  addList(`i.status IN (${dialect.listedValues("statuses")})`, "statuses", filter.statuses);
  add(
    `EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = v.incident_id AND ${dialect.equalsIgnoringCase("c.name", "@component")})`,
    "component",
    filter.component,
  );
  addList(
    `EXISTS (SELECT 1 FROM incident_components c WHERE c.incident_id = v.incident_id AND ${dialect.inListIgnoringCase("c.name", "components")})`,
    "components",
    filter.components,
  );
  add("v.observed_at >= @since", "since", filter.since);
  add("v.observed_at < @until", "until", filter.until);
  add(
    `v.incident_id IN (${dialect.search.matchedIncidentIds})`,
    "query",
    filter.query === undefined ? undefined : dialect.search.parameter(filter.query),
  );
  return { sql: where.map((w) => ` AND ${w}`).join(""), params };
}

/** Ids of the newest matching versions older than the cursor, newest first. */
async function newestIds(connection: Connection, filter: ChangeFilter, limit: number): Promise<{ id: number; at: string }[]> {
  if (filter.watch) return newestWatchedIds(connection, filter, filter.watch, limit);
  const { orderedJoin } = connection.dialect.queries;
  const { sql, params } = conditions(connection.dialect.queries, filter);
  const start = filter.before ?? END;
  const base = { ...params, at: start.at, id: start.id, limit };
  if (!filter.kinds?.length) {
    // The ordered join keeps the versions' time index as the outer loop, so a page never sorts the archive.
    return statementShaped<Params, { id: number; at: string }>(
      connection,
      `SELECT v.id, v.observed_at AS at FROM incident_versions v ${orderedJoin} incidents i ON i.id = v.incident_id
       WHERE (v.observed_at, v.id) < (@at, @id)${sql} ORDER BY v.observed_at DESC, v.id DESC LIMIT @limit`,
    ).all(base);
  }
  // Each kind is read from its own key range in time order, and the lists merged.
  const merged = new Map<number, string>();
  const vendorKey = filter.vendorId !== undefined ? "k.vendor_id = @vendorId AND " : "";
  const statement = statementShaped<Params, { id: number; at: string }>(
    connection,
    `SELECT v.id, v.observed_at AS at FROM version_kinds k ${orderedJoin} incident_versions v ON v.id = k.version_id
       ${orderedJoin} incidents i ON i.id = v.incident_id
     WHERE ${vendorKey}k.kind = @kind AND (k.observed_ms, k.version_id) < (${connection.dialect.queries.observedMs("@at")}, @id)${sql}
     ORDER BY k.observed_ms DESC, k.version_id DESC LIMIT @limit`,
  );
  for (const kind of new Set(filter.kinds)) {
    const code = changeKindCode(kind);
    if (code === undefined) continue;
    for (const row of await statement.all({ ...base, kind: code })) merged.set(row.id, row.at);
  }
  return sortNewestFirst(merged, limit);
}

/** A watchlist reads each vendor's own index range (vendor, time) and merges: never a scan of every version. */
async function newestWatchedIds(connection: Connection, filter: ChangeFilter, watch: readonly WatchScope[], limit: number): Promise<{ id: number; at: string }[]> {
  const { watch: _watch, ...rest } = filter;
  const merged = new Map<number, string>();
  for (const member of watch) {
    const narrowed = member.components ? { components: member.components } : {};
    for (const row of await newestIds(connection, { ...rest, ...narrowed, vendorId: member.vendorId }, limit)) merged.set(row.id, row.at);
  }
  return sortNewestFirst(merged, limit);
}

function sortNewestFirst(merged: Map<number, string>, limit: number): { id: number; at: string }[] {
  return [...merged.entries()]
    .map(([id, at]) => ({ id, at }))
    .sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1))
    .slice(0, limit);
}

/** A stored row with its content read (its changes only if asked); the version's title and kind are the incident's where it stored none. */
function unpackRow(row: StoredChange, withChanges: boolean): RawChange {
  const content: Omit<VersionContent, "changes"> & { changes?: Change[] } = withChanges ? unpackVersionContent(row.content) : unpackVersionText(row.content);
  // Built field by field, in the order rows had as columns: faster than spreads, and the same JSON.
  return {
    versionId: row.versionId, seq: row.seq, observedAt: row.observedAt, kinds: row.kinds, summary: content.summary, headline: content.headline,
    providerId: row.providerId, title: row.title, impact: row.impact, status: row.status, incidentKind: row.incidentKind,
    vendorSlug: row.vendorSlug, vendorName: row.vendorName,
    versionTitle: content.title ?? row.title, versionImpact: content.impact, versionKind: content.incidentKind ?? row.incidentKind,
    incidentId: row.incidentId, textVersion: row.textVersion, changes: content.changes,
  };
}

async function readRows(connection: Connection, ids: readonly number[], withChanges: boolean): Promise<Map<number, RawChange>> {
  const rows = await statementShaped<[string], StoredChange>(
    connection,
    `SELECT ${COLUMNS} FROM incident_versions v JOIN incidents i ON i.id = v.incident_id
     JOIN vendors d ON d.id = v.vendor_id WHERE v.id IN (${connection.dialect.queries.idsInParameter})`,
  ).all(JSON.stringify(ids));
  return new Map(rows.map((r) => [r.versionId, unpackRow(r, withChanges)]));
}

async function refreshText(db: RedlineDb, raw: RawChange, summarizer: Summarizer): Promise<RawChange> {
  const [fresh] = await withFreshText(db, [{ ...raw, kinds: JSON.parse(raw.kinds) as string[] }], summarizer);
  return fresh ? { ...raw, summary: fresh.summary, headline: fresh.headline } : raw;
}

async function page<T extends ChangeRow>(
  db: RedlineDb, filter: ChangeFilter, limit: number, withChanges: boolean, shape: (raw: RawChange) => T, summarizer: Summarizer,
): Promise<ChangePage<T>> {
  const ids = await newestIds(db.connection, filter, limit + 1);
  const byId = await readRows(db.connection, ids.map((r) => r.id), withChanges);
  const raw = ids.map((r) => byId.get(r.id)).filter((r): r is RawChange => r !== undefined);
  const rows: T[] = [];
  for (const r of raw) rows.push(shape(r.textVersion === summarizer.version ? r : await refreshText(db, r, summarizer)));
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { rows: shown, next: rows.length > limit && last ? encodeCursor({ at: last.observedAt, id: last.versionId }) : null };
}

function toRow({ changes: _changes, incidentId: _incidentId, textVersion: _textVersion, ...raw }: RawChange): ChangeRow {
  return { ...raw, kinds: JSON.parse(raw.kinds) as ChangeKindName[] };
}

/** Changes newest first, filtered, a page at a time. */
export async function listChanges(db: RedlineDb, filter: ChangeFilter, limit: number, summarizer: Summarizer = currentSummarizer): Promise<ChangePage> {
  return page(db, filter, limit, false, toRow, summarizer);
}

/** The same list, each change with its field changes (Before / After). */
export async function listChangeDetails(db: RedlineDb, filter: ChangeFilter, limit: number, summarizer: Summarizer = currentSummarizer): Promise<ChangePage<ChangeDetailRow>> {
  return page(db, filter, limit, true, (raw) => ({
    ...toRow(raw),
    changes: raw.changes ?? [],
  }), summarizer);
}
