import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { UtcTime } from "@/components/utc-time";
import { VendorNowCell } from "@/components/vendor-now";
import { listVendorOverviews } from "@/db/queries/vendors-overview";
import { getServerDb } from "@/db/driver/server-db";
import { paths } from "@/lib/incident-key";
import { platformLabel } from "@/lib/labels";
import { vendorsParamsSchema } from "@/lib/page-params";
import { compareByNow } from "@/lib/vendor-now";
import { readNowRules } from "@/lib/now-rules";
import { readEnv } from "@/lib/env";
import { redlineCommand } from "@/lib/redline-command";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Vendors" };

function PollHealth({ poll, polled }: { poll: Awaited<ReturnType<typeof listVendorOverviews>>[number]["poll"]; polled: boolean }) {
  if (!polled) return <span className="muted">not polled</span>;
  if (!poll?.lastPollAt) return <span className="muted">not polled yet</span>;
  if (poll.lastOutcome === "ok") return <span className="health-ok">healthy</span>;
  return (
    <span className="health-failed" title={poll.lastError ?? undefined}>
      failing{poll.failures > 1 ? ` (${poll.failures} times)` : ""}
    </span>
  );
}

export default async function VendorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = vendorsParamsSchema.safeParse(await searchParams);
  if (!params.success) notFound();
  const now = new Date();
  const { q, state, sort } = params.data;
  const vendors = (await listVendorOverviews(getServerDb(), now, readNowRules(), q)).filter((v) => state === undefined || v.now.state === state);
  if (sort === "now") {
    vendors.sort((a, b) => compareByNow({ name: a.name, state: a.now.state, worstImpact: a.worstOpenImpact, open: a.openIncidents }, { name: b.name, state: b.now.state, worstImpact: b.worstOpenImpact, open: b.openIncidents }));
  }
  return (
    <>
      <h1>Vendors</h1>
      <p className="links"><a href="/compare">Compare vendors side by side</a> · <a href={paths.watchlists()}>Watchlists</a></p>
      <form className="filters" method="get" action="/vendors" role="search" aria-label="Filter vendors">
        <label>
          Name <input type="search" name="q" defaultValue={q ?? ""} maxLength={100} />
        </label>{" "}
        <label>
          Now{" "}
          <select name="state" defaultValue={state ?? ""}>
            <option value="">any</option>
            <option value="incident">open incident</option>
            <option value="unknown">unknown</option>
            <option value="clear">no open incident</option>
          </select>
        </label>{" "}
        <label>
          Sort by{" "}
          <select name="sort" defaultValue={sort ?? "name"}>
            <option value="name">name</option>
            <option value="now">now: open incidents first</option>
          </select>
        </label>{" "}
        <button type="submit">Filter</button>
      </form>
      {vendors.length === 0 ? (
        <p>No vendor matches. Add vendors with <code>{redlineCommand("vendors add", readEnv(), process.cwd())}</code> or import snapshots.</p>
      ) : (
        <div className="table-scroll">
          <table className="vendor-table">
            <caption className="visually-hidden">Vendors with their state as of the last good capture, last incident, incidents in the last 90 days and polling health</caption>
            <thead>
              <tr>
                <th scope="col">Vendor</th>
                <th scope="col">Now</th>
                <th scope="col">Last incident</th>
                <th scope="col" className="number">Last 90 days</th>
                <th scope="col">Polling</th>
              </tr>
            </thead>
            <tbody>
              {vendors.map((v) => (
                <tr key={v.slug}>
                  <td data-label="">
                    <a href={paths.vendor(v.slug)}>{v.name}</a>
                    <div className="muted small">{platformLabel(v.platform)}</div>
                  </td>
                  <td data-label="Now">
                    <VendorNowCell now={v.now} at={now} />
                  </td>
                  <td data-label="Last incident">
                    {v.lastIncident ? (
                      <>
                        <a href={paths.incident(v.slug, v.lastIncident.providerId)}>{v.lastIncident.title || "(untitled)"}</a>
                        <div className="small">
                          <UtcTime iso={v.lastIncident.startedAt} now={now} />
                        </div>
                      </>
                    ) : (
                      <span className="muted">none archived</span>
                    )}
                  </td>
                  <td className="number" data-label="Last 90 days">{v.incidentsLast90Days}</td>
                  <td data-label="Polling">
                    <PollHealth poll={v.poll} polled={v.polled} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
