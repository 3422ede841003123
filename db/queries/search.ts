import type { RedlineDb } from "@/db/driver/database";
import type { Connection, Dialect } from "@/db/driver/connection";
import { statementsFor } from "@/db/driver/prepared";
import { SEARCH_LIMITS, searchWordsOf } from "@/lib/search-words";

export interface SearchHit {
  providerId: string;
  title: string;
  impact: string | null;
  startedAt: string | null;
  vendorSlug: string;
  vendorName: string;
  /** Matching text with the matched words between \u0001 and \u0002 (rendered as <mark>). */
  snippet: string;
  /** The last version that said the words when they are found only in text since edited away, else null. */
  earlierSeq: number | null;
}

export const SNIPPET_OPEN = "\u0001";
export const SNIPPET_CLOSE = "\u0002";

/**
 * The words of a search box as an FTS5 query that cannot be a syntax error: every word a quoted
 * string (all must match), a trailing * kept as a prefix search. Null when nothing is left. Callers
 * refuse words past SEARCH_LIMITS first (searchWordsProblem); the cut here only bounds a caller that did not.
 */
export function toFtsQuery(input: string): string | null {
  const terms = searchWordsOf(input)
    .slice(0, SEARCH_LIMITS.words)
    .map((w) => (w.prefix ? `"${w.text}"*` : `"${w.text}"`));
  return terms.length > 0 ? terms.join(" ") : null;
}

/**
 * The words of a query `toFtsQuery` made, as PostgreSQL's `redline_search_query` takes them: each
 * a phrase, a trailing * a prefix (decision 0041).
 */
export function searchTermsOf(ftsQuery: string): string[] {
  return [...ftsQuery.matchAll(/"([^"]*)"(\*?)/g)].map((m) => `${m[1] ?? ""}${m[2] ?? ""}`);
}

/** The value of a `query` parameter: FTS5's query on SQLite, its words as a JSON list on PostgreSQL (for `SEARCH_QUERY`). */
export function searchParameter(dialect: Dialect, ftsQuery: string): string {
  return dialect === "postgres" ? JSON.stringify(searchTermsOf(ftsQuery)) : ftsQuery;
}

/** PostgreSQL's tsquery of a `query` parameter. */
export const SEARCH_QUERY = "redline_search_query(ARRAY(SELECT jsonb_array_elements_text(@query::jsonb)))";

/** Any of its words: what a headline marks in a column that holds only some of them. */
const SEARCH_WORDS = `(SELECT string_agg('(' || redline_search_query(ARRAY[t])::text || ')', ' | ')::tsquery FROM jsonb_array_elements_text(@query::jsonb) AS t)`;

/**
 * The column a PostgreSQL headline is made of, as FTS5's snippet picks its best one: the first of
 * title, updates and postmortem that has every word, else the first of updates, title and
 * postmortem that has any. ts_headline marks nothing when the words are further apart than the
 * headline is long; FTS5 marks those it shows, so then the headline marks any of them.
 */
const HEADLINE = `LEFT JOIN LATERAL (
       SELECT c.text, redline_search_headline(c.text, c.query) AS line FROM (VALUES (1, s.title, q.query), (2, s.updates, q.query), (3, s.postmortem, q.query),
         (4, s.updates, q.words), (5, s.title, q.words), (6, s.postmortem, q.words)) AS c (n, text, query)
       WHERE redline_search_vector(c.text) @@ c.query ORDER BY c.n LIMIT 1) h ON TRUE`;

/** The vendor and period conditions on a matched incident's id (`cast` types parameters PostgreSQL cannot infer). */
const incidentFilter = (id: string, cast = "") => `(@vendor${cast} IS NULL OR ${id} IN (SELECT i.id FROM vendors d JOIN incidents i ON i.vendor_id = d.id WHERE d.slug = @vendor))
         AND (coalesce(@from${cast}, @to${cast}) IS NULL OR EXISTS (
           SELECT 1 FROM incidents i WHERE i.id = ${id}
             AND (@from IS NULL OR coalesce(i.started_at, i.first_seen_at) >= @from)
             AND (@to IS NULL OR coalesce(i.started_at, i.first_seen_at) < @to)))`;

type Where = { query: string; vendor: string | null; from: string | null; to: string | null };
type PageWhere = Where & { limit: number; offset: number };

// Ranks the matches alone, then reads rows and snippets for one page of them: computed in the
// same SELECT, every match's snippet was made before the sort (3x slower for a common word).
// PostgreSQL ranks with ts_rank_cd (higher is better).
const statements = statementsFor((c: Connection) => ({
  search: c.prepare<PageWhere, SearchHit>({
    sqlite: `WITH ranked AS (
       SELECT rowid AS id, bm25(incident_search, 8.0, 1.0, 2.0) AS score FROM incident_search
       WHERE incident_search MATCH @query
         AND ${incidentFilter("incident_search.rowid")}
       ORDER BY score, rowid LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       snippet(incident_search, -1, char(1), char(2), '…', 24) AS snippet, NULL AS earlierSeq
     FROM ranked r CROSS JOIN incident_search s ON s.rowid = r.id JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id
     WHERE incident_search MATCH @query
     ORDER BY r.score, r.id`,
    postgres: `WITH q AS (SELECT ${SEARCH_QUERY} AS query, ${SEARCH_WORDS} AS words),
     ranked AS (
       SELECT s.incident_id AS id, ts_rank_cd('{0.125, 0.25, 0.5, 1}', s.document, q.query) AS score FROM incident_search s, q
       WHERE s.document @@ q.query
         AND ${incidentFilter("s.incident_id", "::text")}
       ORDER BY score DESC, s.incident_id LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       coalesce(CASE WHEN strpos(h.line, chr(1)) > 0 THEN h.line ELSE redline_search_headline(h.text, q.words) END, '') AS snippet,
       NULL::bigint AS earlierSeq
     FROM ranked r JOIN incident_search s ON s.incident_id = r.id JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id CROSS JOIN q
       ${HEADLINE}
     ORDER BY r.score DESC, r.id`,
  }),
  count: c.prepare<Where, { n: number }>({
    sqlite: `SELECT count(*) AS n FROM incident_search WHERE incident_search MATCH @query AND ${incidentFilter("incident_search.rowid")}`,
    postgres: `SELECT count(*) AS n FROM incident_search s WHERE s.document @@ ${SEARCH_QUERY} AND ${incidentFilter("s.incident_id", "::text")}`,
  }),
}));

// Incidents whose current text does not match but a version's removed text does: the newest such
// version per incident, ranked after every current match. Prepared apart: searchCurrentText also
// serves files from before version_search (migration 0022).
const earlierStatements = statementsFor((c: Connection) => ({
  earlier: c.prepare<PageWhere, SearchHit>({
    sqlite: `WITH matched AS MATERIALIZED (
       SELECT rowid AS versionId, bm25(version_search) AS score FROM version_search WHERE version_search MATCH @query
     ),
     removals AS (
       SELECT v.incident_id AS id, v.seq, m.score FROM matched m CROSS JOIN incident_versions v ON v.id = m.versionId
     ),
     ranked AS (
       SELECT id, max(seq) AS seq, min(score) AS score FROM removals
       WHERE id NOT IN (SELECT rowid FROM incident_search WHERE incident_search MATCH @query)
         AND ${incidentFilter("removals.id")}
       GROUP BY id ORDER BY score, id LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       snippet(version_search, 0, char(1), char(2), '…', 24) AS snippet, r.seq - 1 AS earlierSeq
     FROM ranked r JOIN incident_versions v ON v.incident_id = r.id AND v.seq = r.seq CROSS JOIN version_search e ON e.rowid = v.id
       JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id
     WHERE version_search MATCH @query
     ORDER BY r.score, r.id`,
    // "materialized" in lower case: the driver quotes a capitalised word after AS as an alias.
    postgres: `WITH q AS (SELECT ${SEARCH_QUERY} AS query, ${SEARCH_WORDS} AS words),
     matched AS materialized (
       SELECT e.version_id, ts_rank_cd(e.document, q.query) AS score FROM version_search e, q WHERE e.document @@ q.query
     ),
     removals AS (
       SELECT v.incident_id AS id, v.seq, m.score FROM matched m JOIN incident_versions v ON v.id = m.version_id
     ),
     ranked AS (
       SELECT id, max(seq) AS seq, max(score) AS score FROM removals
       WHERE id NOT IN (SELECT s.incident_id FROM incident_search s, q WHERE s.document @@ q.query)
         AND ${incidentFilter("removals.id", "::text")}
       GROUP BY id ORDER BY score DESC, id LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       CASE WHEN strpos(h.line, chr(1)) > 0 THEN h.line ELSE redline_search_headline(e.removed, q.words) END AS snippet, r.seq - 1 AS earlierSeq
     FROM ranked r JOIN incident_versions v ON v.incident_id = r.id AND v.seq = r.seq JOIN version_search e ON e.version_id = v.id
       JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id CROSS JOIN q
       CROSS JOIN LATERAL (SELECT redline_search_headline(e.removed, q.query) AS line) h
     ORDER BY r.score DESC, r.id`,
  }),
}));

type Filter = { vendor?: string; from?: string; to?: string };
type Page = { limit: number; offset: number };

const whereOf = (db: RedlineDb, query: string, filter: Filter): Where => ({
  query: searchParameter(db.connection.dialect.name, query), vendor: filter.vendor ?? null, from: filter.from ?? null, to: filter.to ?? null,
});

/** Incidents whose current title, update texts or postmortem match, best first (titles weigh most). */
export async function searchCurrentText(db: RedlineDb, query: string, filter: Filter, page: Page): Promise<{ hits: SearchHit[]; more: boolean }> {
  const hits = await statements(db).search.all({ ...whereOf(db, query, filter), limit: page.limit + 1, offset: page.offset });
  return { hits: hits.slice(0, page.limit), more: hits.length > page.limit };
}

/**
 * Incidents whose current title, update texts or postmortem match, best first (titles weigh most); then
 * those whose words are found only in text an edit took away, marked with the version that had it.
 */
export async function searchIncidents(db: RedlineDb, query: string, filter: Filter, page: Page): Promise<{ hits: SearchHit[]; more: boolean }> {
  const st = statements(db);
  const where = whereOf(db, query, filter);
  const current = await st.search.all({ ...where, limit: page.limit + 1, offset: page.offset });
  if (current.length > page.limit) return { hits: current.slice(0, page.limit), more: true };
  // Only the page where current matches run out reads the earlier ones.
  const currentTotal = current.length > 0 ? page.offset + current.length : ((await st.count.get(where))?.n ?? 0);
  const wanted = page.limit + 1 - current.length;
  const earlier = await earlierStatements(db).earlier.all({ ...where, limit: wanted, offset: Math.max(0, page.offset - currentTotal) });
  const hits = [...current, ...earlier];
  return { hits: hits.slice(0, page.limit), more: hits.length > page.limit };
}
