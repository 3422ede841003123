import type { Connection, RedlineDb } from "@/db/driver/database";
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

/** The vendor and period conditions on a matched incident's id (`cast` types the parameters a statement cannot show). */
const incidentFilter = (id: string, cast: string) => `(@vendor${cast} IS NULL OR ${id} IN (SELECT i.id FROM vendors d JOIN incidents i ON i.vendor_id = d.id WHERE d.slug = @vendor))
         AND (coalesce(@from${cast}, @to${cast}) IS NULL OR EXISTS (
           SELECT 1 FROM incidents i WHERE i.id = ${id}
             AND (@from IS NULL OR coalesce(i.started_at, i.first_seen_at) >= @from)
             AND (@to IS NULL OR coalesce(i.started_at, i.first_seen_at) < @to)))`;

type Where = { query: string; vendor: string | null; from: string | null; to: string | null };
type PageWhere = Where & { limit: number; offset: number };

const searchSql = (c: Connection) => c.dialect.queries.search.statements((id) => incidentFilter(id, c.dialect.queries.textParameterCast));

const statements = statementsFor((c: Connection) => {
  const sql = searchSql(c);
  return { search: c.prepare<PageWhere, SearchHit>(sql.page), count: c.prepare<Where, { n: number }>(sql.count) };
});

// Incidents whose current text does not match but a version's removed text does: the newest such
// version per incident, ranked after every current match. Prepared apart: searchCurrentText also
// serves files from before version_search (migration 0022).
const earlierStatements = statementsFor((c: Connection) => ({ earlier: c.prepare<PageWhere, SearchHit>(searchSql(c).earlier) }));

type Filter = { vendor?: string; from?: string; to?: string };
type Page = { limit: number; offset: number };

const whereOf = (db: RedlineDb, query: string, filter: Filter): Where => ({
  query: db.connection.dialect.queries.search.parameter(query), vendor: filter.vendor ?? null, from: filter.from ?? null, to: filter.to ?? null,
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
