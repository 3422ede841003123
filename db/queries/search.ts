import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";

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

const MAX_TERMS = 12;

/**
 * The words of a search box as an FTS5 query that cannot be a syntax error: every word a quoted
 * string (all must match), a trailing * kept as a prefix search. Null when nothing is left.
 */
export function toFtsQuery(input: string): string | null {
  const terms = input
    .normalize("NFKC")
    .split(/\s+/)
    .map((t) => [...t].filter((c) => c !== '"' && c.charCodeAt(0) >= 32).join(""))
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, MAX_TERMS)
    .map((t) => (t.endsWith("*") && t.length > 1 ? `"${t.replace(/\*+$/, "")}"*` : `"${t.replace(/\*/g, "")}"`));
  return terms.length > 0 ? terms.join(" ") : null;
}

/** The vendor and period conditions on a matched incident's id. */
const incidentFilter = (id: string) => `(@vendor IS NULL OR ${id} IN (SELECT i.id FROM vendors d JOIN incidents i ON i.vendor_id = d.id WHERE d.slug = @vendor))
         AND (coalesce(@from, @to) IS NULL OR EXISTS (
           SELECT 1 FROM incidents i WHERE i.id = ${id}
             AND (@from IS NULL OR coalesce(i.started_at, i.first_seen_at) >= @from)
             AND (@to IS NULL OR coalesce(i.started_at, i.first_seen_at) < @to)))`;

// Ranks the matches alone, then reads rows and snippets for one page of them: computed in the
// same SELECT, every match's snippet was made before the sort (3x slower for a common word).
const statements = preparedFor((sqlite) => ({
  search: sqlite.prepare<
    { query: string; vendor: string | null; from: string | null; to: string | null; limit: number; offset: number },
    SearchHit
  >(
    `WITH ranked AS (
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
  ),
  count: sqlite.prepare<{ query: string; vendor: string | null; from: string | null; to: string | null }, { n: number }>(
    `SELECT count(*) AS n FROM incident_search WHERE incident_search MATCH @query AND ${incidentFilter("incident_search.rowid")}`,
  ),
}));

// Incidents whose current text does not match but a version's removed text does: the newest such
// version per incident, ranked after every current match. Prepared apart: searchCurrentText also
// serves files from before version_search (migration 0022).
const earlierStatements = preparedFor((sqlite) => ({
  earlier: sqlite.prepare<
    { query: string; vendor: string | null; from: string | null; to: string | null; limit: number; offset: number },
    SearchHit
  >(
    `WITH matched AS MATERIALIZED (
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
  ),
}));

type Filter = { vendor?: string; from?: string; to?: string };
type Page = { limit: number; offset: number };

const whereOf = (query: string, filter: Filter) => ({ query, vendor: filter.vendor ?? null, from: filter.from ?? null, to: filter.to ?? null });

/** Incidents whose current title, update texts or postmortem match, best first (titles weigh most). */
export async function searchCurrentText(db: RedlineDb, query: string, filter: Filter, page: Page): Promise<{ hits: SearchHit[]; more: boolean }> {
  const hits = statements(db).search.all({ ...whereOf(query, filter), limit: page.limit + 1, offset: page.offset });
  return { hits: hits.slice(0, page.limit), more: hits.length > page.limit };
}

/**
 * Incidents whose current title, update texts or postmortem match, best first (titles weigh most); then
 * those whose words are found only in text an edit took away, marked with the version that had it.
 */
export async function searchIncidents(db: RedlineDb, query: string, filter: Filter, page: Page): Promise<{ hits: SearchHit[]; more: boolean }> {
  const st = statements(db);
  const where = whereOf(query, filter);
  const current = st.search.all({ ...where, limit: page.limit + 1, offset: page.offset });
  if (current.length > page.limit) return { hits: current.slice(0, page.limit), more: true };
  // Only the page where current matches run out reads the earlier ones.
  const currentTotal = current.length > 0 ? page.offset + current.length : (st.count.get(where)?.n ?? 0);
  const wanted = page.limit + 1 - current.length;
  const earlier = earlierStatements(db).earlier.all({ ...where, limit: wanted, offset: Math.max(0, page.offset - currentTotal) });
  const hits = [...current, ...earlier];
  return { hits: hits.slice(0, page.limit), more: hits.length > page.limit };
}
