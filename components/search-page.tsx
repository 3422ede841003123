import { ImpactBadge } from "@/components/badges";
import { UtcTime } from "@/components/utc-time";
import type { SearchHit } from "@/db/queries/search";
import { SNIPPET_CLOSE, SNIPPET_OPEN } from "@/db/queries/search";
import type { VendorName } from "@/db/queries/vendor-names";
import { paths } from "@/lib/incident-key";
import { SEARCH_LIMITS } from "@/lib/search-words";

export const SEARCH_PAGE_SIZE = 25;

/** What the search page shows: the form's values, and the hits, or why there are none. */
export interface SearchPageView {
  q: string;
  vendor: string | undefined;
  since: string | undefined;
  until: string | undefined;
  page: number;
  /** The query's string parameters, for the links to other pages of results. */
  params: readonly (readonly [string, string])[];
  /** Null when no search ran (no words). */
  result: { hits: SearchHit[]; more: boolean } | null;
  /** Why the search was stopped or refused (answered 503), else null. */
  stopped: string | null;
  vendors: readonly VendorName[];
  now: Date;
}

/** The snippet's marked words as <mark>, everything else as escaped text. */
function Snippet({ text }: { text: string }) {
  const parts = text.split(SNIPPET_OPEN);
  return (
    <p className="snippet">
      {parts.map((part, i) => {
        if (i === 0) return <span key={i}>{part}</span>;
        const [hit = "", rest = ""] = part.split(SNIPPET_CLOSE);
        return (
          <span key={i}>
            <mark>{hit}</mark>
            {rest}
          </span>
        );
      })}
    </p>
  );
}

/** The search page under the site's frame: under Next (app/search/page.tsx) and as the web server renders it (server/search/page.tsx). */
export function SearchPageBody({ view }: { view: SearchPageView }) {
  const { q, vendor, since, until, page, result, vendors, now } = view;
  const pageLink = (n: number) => {
    const search = new URLSearchParams();
    for (const [key, value] of view.params) if (key !== "page") search.set(key, value);
    search.set("page", String(n));
    return `/search?${search.toString()}`;
  };
  return (
    <>
      <h1>Search</h1>
      <form className="filters" method="get" action="/search" role="search" aria-label="Search incidents">
        <label>
          Words <input type="search" name="q" defaultValue={q} maxLength={200} />
        </label>{" "}
        <label>
          Vendor{" "}
          <select name="vendor" defaultValue={vendor ?? ""}>
            <option value="">All vendors</option>
            {vendors.map((v) => <option key={v.slug} value={v.slug}>{v.name}</option>)}
          </select>
        </label>{" "}
        <label>Since <input type="date" name="since" defaultValue={since ?? ""} /></label>{" "}
        <label>Until <input type="date" name="until" defaultValue={until ?? ""} /></label>{" "}
        <button type="submit">Search</button>
      </form>
      <p className="muted small">Searches the titles, update texts and postmortems of every version of every incident: words a vendor later edited away are found too, marked &ldquo;in an earlier version&rdquo;. All words must match (at most {SEARCH_LIMITS.words}); end a word of at least {SEARCH_LIMITS.prefixLetters} letters with * to match every word it begins (at most {SEARCH_LIMITS.prefixWords} such words).</p>
      {view.stopped !== null ? (
        <p className="search-stopped" role="alert">No answer: {view.stopped}.</p>
      ) : result === null ? (
        q ? <p>Type at least one word.</p> : null
      ) : result.hits.length === 0 ? (
        <p>No incident matches “{q}”.</p>
      ) : (
        <ol className="search-results" start={(page - 1) * SEARCH_PAGE_SIZE + 1}>
          {result.hits.map((h) => (
            <li key={`${h.vendorSlug}/${h.providerId}`}>
              <div>
                <a href={paths.incident(h.vendorSlug, h.providerId)}>{h.title || "(untitled)"}</a> <ImpactBadge impact={h.impact} />
              </div>
              <div className="muted small">
                {h.vendorName} · <UtcTime iso={h.startedAt} now={now} />
              </div>
              {h.earlierSeq !== null ? (
                <div className="small">
                  <span className="earlier-version">in an earlier version</span>{" "}
                  <a href={paths.version(h.vendorSlug, h.providerId, h.earlierSeq)}>version {h.earlierSeq}, since edited away</a>
                </div>
              ) : null}
              <Snippet text={h.snippet} />
            </li>
          ))}
        </ol>
      )}
      {result && (page > 1 || result.more) ? (
        <nav className="pager" aria-label="Pages">
          {page > 1 ? <a href={pageLink(page - 1)}>← Previous</a> : <span />}
          {result.more && page < 20 ? <a href={pageLink(page + 1)} rel="next">Next →</a> : null}
        </nav>
      ) : null}
    </>
  );
}
