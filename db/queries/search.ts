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
         AND (@vendor IS NULL OR rowid IN (SELECT i.id FROM vendors d JOIN incidents i ON i.vendor_id = d.id WHERE d.slug = @vendor))
         AND (coalesce(@from, @to) IS NULL OR EXISTS (
           SELECT 1 FROM incidents i WHERE i.id = incident_search.rowid
             AND (@from IS NULL OR coalesce(i.started_at, i.first_seen_at) >= @from)
             AND (@to IS NULL OR coalesce(i.started_at, i.first_seen_at) < @to)))
       ORDER BY score, rowid LIMIT @limit OFFSET @offset
     )
     SELECT i.provider_id AS providerId, i.title, i.impact, i.started_at AS startedAt, d.slug AS vendorSlug, d.name AS vendorName,
       snippet(incident_search, -1, char(1), char(2), '…', 24) AS snippet
     FROM ranked r CROSS JOIN incident_search s ON s.rowid = r.id JOIN incidents i ON i.id = r.id JOIN vendors d ON d.id = i.vendor_id
     WHERE incident_search MATCH @query
     ORDER BY r.score, r.id`,
  ),
}));

/** Incidents whose title, update texts or postmortem match, best first (titles weigh most). */
export function searchIncidents(
  db: RedlineDb,
  query: string,
  filter: { vendor?: string; from?: string; to?: string },
  page: { limit: number; offset: number },
): { hits: SearchHit[]; more: boolean } {
  const hits = statements(db).search.all({
    query,
    vendor: filter.vendor ?? null,
    from: filter.from ?? null,
    to: filter.to ?? null,
    limit: page.limit + 1,
    offset: page.offset,
  });
  return { hits: hits.slice(0, page.limit), more: hits.length > page.limit };
}
