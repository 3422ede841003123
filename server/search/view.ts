import { SEARCH_PAGE_SIZE, type SearchPageView } from "@/components/search-page";
import type { RedlineDb } from "@/db/client";
import { toFtsQuery } from "@/db/queries/search";
import { listVendorNames } from "@/db/queries/vendor-names";
import { searchParamsSchema, searchParamsToObject } from "@/lib/page-params";
import { untilInstantOf } from "@/lib/report-period";
import { isSearchStopped, searchRunnerFor } from "@/server/search/runner";

/**
 * The search page's view for a query string: the search run where the process's searches run,
 * and a stopped one said as such (with the seconds to wait). Null when the query is not one the
 * page takes (the proxy answers those with its 400 page).
 */
export async function loadSearchView(db: RedlineDb, params: URLSearchParams, now: Date): Promise<{ view: SearchPageView; retryAfterSeconds: number | null } | null> {
  const raw = searchParamsToObject(params);
  const parsed = searchParamsSchema.safeParse(raw);
  if (!parsed.success) return null;
  const { q = "", vendor, since, until } = parsed.data;
  const page = parsed.data.page ?? 1;
  const fts = toFtsQuery(q);
  let result: SearchPageView["result"] = null;
  let stopped: { why: string; retryAfterSeconds: number } | null = null;
  if (fts) {
    const filter = { vendor, from: since ? `${since}T00:00:00.000Z` : undefined, to: until ? untilInstantOf(until) : undefined };
    try {
      result = await searchRunnerFor(db).run("searchIncidents", [fts, filter, { limit: SEARCH_PAGE_SIZE, offset: (page - 1) * SEARCH_PAGE_SIZE }]);
    } catch (error) {
      if (!isSearchStopped(error)) throw error;
      stopped = { why: error.message, retryAfterSeconds: error.retryAfterSeconds };
    }
  }
  const vendors = await listVendorNames(db);
  const kept = Object.entries(raw).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  return {
    view: { q, vendor, since, until, page, params: kept, result, stopped: stopped?.why ?? null, vendors, now },
    retryAfterSeconds: stopped?.retryAfterSeconds ?? null,
  };
}

