import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ImpactBadge } from "@/components/badges";
import { UtcTime } from "@/components/utc-time";
import { SNIPPET_CLOSE, SNIPPET_OPEN, searchIncidents, toFtsQuery } from "@/db/queries/search";
import { getServerDb } from "@/db/server-db";
import { listVendorNames } from "@/db/queries/vendor-names";
import { paths } from "@/lib/incident-key";
import { searchParamsSchema } from "@/lib/page-params";
import { untilInstantOf } from "@/lib/report-period";
import { SEARCH_LIMITS } from "@/lib/search-words";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Search" };

const PAGE_SIZE = 25;

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

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const params = searchParamsSchema.safeParse(raw);
  if (!params.success) notFound();
  const db = getServerDb();
  const { q = "", vendor, since, until } = params.data;
  const page = params.data.page ?? 1;
  const fts = toFtsQuery(q);
  const result = fts
    ? await searchIncidents(db, fts, { vendor, from: since ? `${since}T00:00:00.000Z` : undefined, to: until ? untilInstantOf(until) : undefined }, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
    : null;
  const vendors = await listVendorNames(db);
  const now = new Date();
  const pageLink = (n: number) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(raw)) if (key !== "page" && typeof value === "string") search.set(key, value);
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
      {result === null ? (
        q ? <p>Type at least one word.</p> : null
      ) : result.hits.length === 0 ? (
        <p>No incident matches “{q}”.</p>
      ) : (
        <ol className="search-results" start={(page - 1) * PAGE_SIZE + 1}>
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
