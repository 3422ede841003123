import type { SearchDialect } from "@/db/driver/database";

/**
 * The words of a query `toFtsQuery` made, as `redline_search_query` takes them: each a phrase, a
 * trailing * a prefix (decision 0041).
 */
export function searchTermsOf(ftsQuery: string): string[] {
  return [...ftsQuery.matchAll(/"([^"]*)"(\*?)/g)].map((m) => `${m[1] ?? ""}${m[2] ?? ""}`);
}

/** The tsquery of a `query` parameter (its words as a JSON list). */
const SEARCH_QUERY = "redline_search_query(ARRAY(SELECT jsonb_array_elements_text(@query::jsonb)))";

/** Any of its words: what a headline marks in a column that holds only some of them. */
const SEARCH_WORDS = `(SELECT string_agg('(' || redline_search_query(ARRAY[t])::text || ')', ' | ')::tsquery FROM jsonb_array_elements_text(@query::jsonb) AS t)`;

/**
 * The column a headline is made of, as FTS5's snippet picks its best one: the first of title,
 * updates and postmortem that has every word, else the first of updates, title and postmortem that
 * has any. ts_headline marks nothing when the words are further apart than the headline is long;
 * FTS5 marks those it shows, so then the headline marks any of them.
 */
const HEADLINE = `LEFT JOIN LATERAL (
       SELECT c.text, redline_search_headline(c.text, c.query) AS line FROM (VALUES (1, s.title, q.query), (2, s.updates, q.query), (3, s.postmortem, q.query),
         (4, s.updates, q.words), (5, s.title, q.words), (6, s.postmortem, q.words)) AS c (n, text, query)
       WHERE redline_search_vector(c.text) @@ c.query ORDER BY c.n LIMIT 1) h ON TRUE`;

/**
 * The tsvector side of the search: the same pages as FTS5's, ranked with ts_rank_cd (higher is
 * better), snippets made by ts_headline for one page of matches.
 */
export const postgresSearch: SearchDialect = {
  parameter: (ftsQuery) => JSON.stringify(searchTermsOf(ftsQuery)),
  matchedIncidentIds: `SELECT incident_id FROM incident_search WHERE document @@ ${SEARCH_QUERY}`,
  statements: (incidentFilter) => ({
    page: `WITH q AS (SELECT ${SEARCH_QUERY} AS query, ${SEARCH_WORDS} AS words),
     ranked AS (
       SELECT s.incident_id AS id, ts_rank_cd('{0.125, 0.25, 0.5, 1}', s.document, q.query) AS score FROM incident_search s, q
       WHERE s.document @@ q.query
         AND ${incidentFilter("s.incident_id")}
       ORDER BY score DESC, s.incident_id LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       coalesce(CASE WHEN strpos(h.line, chr(1)) > 0 THEN h.line ELSE redline_search_headline(h.text, q.words) END, '') AS snippet,
       NULL::bigint AS earlierSeq
     FROM ranked r JOIN incident_search s ON s.incident_id = r.id JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id CROSS JOIN q
       ${HEADLINE}
     ORDER BY r.score DESC, r.id`,
    count: `SELECT count(*) AS n FROM incident_search s WHERE s.document @@ ${SEARCH_QUERY} AND ${incidentFilter("s.incident_id")}`,
    // "materialized" in lower case: the driver quotes a capitalised word after AS as an alias.
    earlier: `WITH q AS (SELECT ${SEARCH_QUERY} AS query, ${SEARCH_WORDS} AS words),
     matched AS materialized (
       SELECT e.version_id, ts_rank_cd(e.document, q.query) AS score FROM version_search e, q WHERE e.document @@ q.query
     ),
     removals AS (
       SELECT v.incident_id AS id, v.seq, m.score FROM matched m JOIN incident_versions v ON v.id = m.version_id
     ),
     ranked AS (
       SELECT id, max(seq) AS seq, max(score) AS score FROM removals
       WHERE id NOT IN (SELECT s.incident_id FROM incident_search s, q WHERE s.document @@ q.query)
         AND ${incidentFilter("removals.id")}
       GROUP BY id ORDER BY score DESC, id LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       CASE WHEN strpos(h.line, chr(1)) > 0 THEN h.line ELSE redline_search_headline(e.removed, q.words) END AS snippet, r.seq - 1 AS earlierSeq
     FROM ranked r JOIN incident_versions v ON v.incident_id = r.id AND v.seq = r.seq JOIN version_search e ON e.version_id = v.id
       JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id CROSS JOIN q
       CROSS JOIN LATERAL (SELECT redline_search_headline(e.removed, q.query) AS line) h
     ORDER BY r.score DESC, r.id`,
  }),
};
