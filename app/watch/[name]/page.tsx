import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CalendarLink } from "@/components/calendar-link";
import { ChangeList } from "@/components/change-list";
import { FeedLinks, feedAlternates } from "@/components/feed-links";
import { Pager } from "@/components/pager";
import { VendorNowCell } from "@/components/vendor-now";
import { decodeCursor } from "@/db/driver/prepared";
import { getWatchlistPage } from "@/db/queries/watchlist-page";
import { getWatchlist } from "@/db/notifications/watchlists";
import { getServerDb } from "@/db/driver/server-db";
import { paths } from "@/lib/incident-key";
import { readNowRules } from "@/lib/now-rules";
import { watchlistParamsSchema } from "@/lib/page-params";

export const dynamic = "force-dynamic";

const PAGE_SIZE = 50;

type Props = { params: Promise<{ name: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The segment as a name; a malformed escape names nothing (a 404, not a 500). */
function nameOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const name = nameOf((await params).name);
  if (!(await getWatchlist(getServerDb(), name))) return { title: "Not found" };
  return { title: `Watchlist ${name}`, alternates: feedAlternates((f) => paths.watchlistFeed(name, f), `watchlist ${name} changes`) };
}

export default async function WatchlistPage({ params, searchParams }: Props) {
  const name = nameOf((await params).name);
  const raw = await searchParams;
  const query = watchlistParamsSchema.safeParse(raw);
  if (!query.success) notFound();
  const now = new Date();
  const before = query.data.before ? decodeCursor(query.data.before) : null;
  const page = await getWatchlistPage(getServerDb(), name, now, readNowRules(), before, PAGE_SIZE);
  if (!page) notFound();
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href={paths.watchlists()}>Watchlists</a> / {name}
      </nav>
      <h1>Watchlist {name}</h1>
      <FeedLinks feedPath={(f) => paths.watchlistFeed(name, f)} label={`every change of watchlist ${name}`} />
      <CalendarLink href={paths.watchlistMaintenanceCalendar(name)} label={`Watchlist ${name} scheduled maintenance`} />

      <section aria-labelledby="vendors-heading">
        <h2 id="vendors-heading">Vendors</h2>
        <div className="table-scroll">
          <table className="vendor-table">
            <caption className="visually-hidden">The watchlist&rsquo;s vendors with their state as of the last good capture</caption>
            <thead>
              <tr>
                <th scope="col">Vendor</th>
                <th scope="col">Watching</th>
                <th scope="col">Now</th>
              </tr>
            </thead>
            <tbody>
              {page.vendors.map(({ vendor, overview }) => (
                <tr key={vendor.slug}>
                  <td data-label=""><a href={paths.vendor(vendor.slug)}>{vendor.name}</a></td>
                  <td data-label="Watching">{vendor.components === null ? "every component" : vendor.components.join(", ")}</td>
                  <td data-label="Now">{overview ? <VendorNowCell now={overview.now} at={now} /> : <span className="muted">unknown</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="changes-heading">
        <h2 id="changes-heading">Latest changes</h2>
        <ChangeList rows={page.changes.rows} now={now} />
        <Pager basePath={paths.watchlist(name)} params={raw} next={page.changes.next} isFirst={!before} />
      </section>
    </>
  );
}
