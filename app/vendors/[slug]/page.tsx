import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BarChart } from "@/components/bar-chart";
import { ImpactBadge } from "@/components/badges";
import { CalendarLink } from "@/components/calendar-link";
import { ComponentFigureItems, ComponentGroupsTable } from "@/components/component-figures";
import { FeedLinks, feedAlternates } from "@/components/feed-links";
import { Pager } from "@/components/pager";
import { UtcTime } from "@/components/utc-time";
import { IncidentStateText, VendorNowSection } from "@/components/vendor-now";
import { loadComponentFigureFacts } from "@/db/queries/component-figures";
import { decodeCursor } from "@/db/driver/prepared";
import { getArchivedInstants, getVendor, listComponentNames, listIncidentFacts, listStatuses, listVendorIncidents } from "@/db/queries/vendor-profile";
import { describeVendorNowIncidents, getVendorOverview } from "@/db/queries/vendors-overview";
import { getServerDb } from "@/db/driver/server-db";
import { findStatusAt } from "@/db/queries/status-at";
import { toStatusNowPage } from "@/lib/components/status-view";
import { formatDuration } from "@/lib/format";
import { paths, safeHttpUrl } from "@/lib/incident-key";
import { vendorProfileParamsSchema } from "@/lib/page-params";
import { archivedRangeOf, reportPeriod } from "@/lib/report-period";
import { describeFigures } from "@/lib/vendor-figure-text";
import { computeVendorFigures } from "@/lib/vendor-figures";
import { feedsBySource } from "@/lib/vendor-now";
import { readNowRules, statusRules } from "@/lib/now-rules";
import { statusLabel } from "@/lib/labels";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const vendor = await getVendor(getServerDb(), (await params).slug);
  if (!vendor) notFound();
  return { title: `${vendor.name} profile`, alternates: feedAlternates((f) => paths.vendorFeed(vendor.slug, f), `${vendor.name} changes`) };
}


export default async function VendorProfilePage({ params, searchParams }: Props) {
  const { slug } = await params;
  const raw = await searchParams;
  const query = vendorProfileParamsSchema.safeParse(raw);
  const db = getServerDb();
  const vendor = await getVendor(db, slug);
  if (!vendor || !query.success) notFound();
  const now = new Date();
  const period = reportPeriod(query.data, archivedRangeOf(await getArchivedInstants(db, vendor.id)), now);
  const overview = await getVendorOverview(db, now, readNowRules(), vendor.slug);
  if (!overview) notFound();
  const feedOf = feedsBySource(overview.sources);
  const gridFigures = await loadComponentFigureFacts(db, vendor, { from: period.sinceAt, to: period.untilAt }, now, readNowRules());
  const figures = computeVendorFigures(await listIncidentFacts(db, vendor.id, period.sinceAt, period.untilAt), { from: period.sinceAt, to: `${period.until}T23:59:59.999Z` }, feedOf, gridFigures);
  const figureText = describeFigures(figures);
  const before = query.data.before ? decodeCursor(query.data.before) : null;
  const list = await listVendorIncidents(
    db,
    vendor.id,
    { impact: query.data.impact, status: query.data.status, component: query.data.component, from: query.data.since ? period.sinceAt : undefined, to: query.data.until ? period.untilAt : undefined, before },
    50,
  );
  const components = await listComponentNames(db, vendor.id);
  const statuses = await listStatuses(db, vendor.id);
  const vendorNow = await describeVendorNowIncidents(db, overview, now);
  const gridFacts = await findStatusAt(db, vendor.slug, now.toISOString(), statusRules());
  if (!gridFacts) notFound();
  const grid = toStatusNowPage(gridFacts, overview.nowFacts, now);
  const statusPage = safeHttpUrl(vendor.statusPageUrl ?? vendor.url);
  const periodLabel = `${period.since} to ${period.until}`;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/vendors">Vendors</a> / {vendor.name}
      </nav>
      <h1>{vendor.name}</h1>
      <p className="links">
        <a href={paths.vendorChanges(vendor.slug)}>All {vendor.name} changes</a>
        {" · "}
        <a href={`/compare?pick=${vendor.slug}`}>Compare with other vendors</a>
        {statusPage ? (
          <>
            {" · "}
            <a href={statusPage} rel="nofollow noopener noreferrer">Live status page</a>
          </>
        ) : null}
      </p>
      <FeedLinks feedPath={(f) => paths.vendorFeed(vendor.slug, f)} label={`every ${vendor.name} change`} />
      <FeedLinks feedPath={(f) => paths.vendorKindFeed(vendor.slug, "postmortem-published", f)} label={`${vendor.name} postmortems`} />
      <CalendarLink href={paths.vendorMaintenanceCalendar(vendor.slug)} label={`${vendor.name} scheduled maintenance`} />

      <VendorNowSection vendorName={vendor.name} slug={vendor.slug} now={vendorNow} grid={grid} at={now} lastError={overview.poll?.lastError ?? null} />

      <section aria-labelledby="figures-heading">
        <h2 id="figures-heading">Track record, {periodLabel}</h2>
        <form className="filters" method="get" aria-label="Period">
          <label>Since <input type="date" name="since" defaultValue={period.since} /></label>{" "}
          <label>Until <input type="date" name="until" defaultValue={period.until} /></label>{" "}
          <button type="submit">Show</button>
        </form>
        {period.wholeArchive ? <p className="muted small">Everything archived of {vendor.name}, from its first incident or capture to its last observation.</p> : null}
        <BarChart label={`${vendor.name} incidents per month`} data={figures.perMonth.map((m) => ({ label: m.month, value: m.count }))} />
        <dl className="figures">
          <div><dt>Incidents</dt><dd>{figures.incidents}</dd></div>
          <div><dt>Median time to resolve</dt><dd>{figureText.medianResolve}</dd></div>
          <div><dt>90th percentile time to resolve</dt><dd>{figureText.p90Resolve}</dd></div>
          <div><dt>With a postmortem</dt><dd>{figureText.postmortemShare}</dd></div>
          <div><dt>Median wait for the postmortem</dt><dd>{figureText.postmortemWait}</dd></div>
          <div><dt>Edits after resolution</dt><dd>{figureText.editsAfterResolution}</dd></div>
          <ComponentFigureItems figures={figures.components} />
        </dl>
        <p>
          Impact mix:{" "}
          {figures.impactMix.length === 0
            ? "no incidents"
            : figures.impactMix.map((m, i) => (
                <span key={m.impact}>
                  {i > 0 ? ", " : ""}
                  <ImpactBadge impact={m.impact} /> {m.count}
                </span>
              ))}
        </p>
      </section>

      {figures.components?.known ? (
        <section aria-labelledby="components-heading">
          <h2 id="components-heading">Components, {periodLabel}</h2>
          <p className="muted small">
            Time some component of each group was degraded or out, of the time Redline watched {vendor.name}&apos;s grid; time it did not watch (polling gaps, failed captures) is never counted as operational. Each component has a page of its own.
          </p>
          <ComponentGroupsTable figures={figures.components} vendorSlug={vendor.slug} vendorName={vendor.name} periodLabel={periodLabel} />
        </section>
      ) : null}

      <section aria-labelledby="incidents-heading">
        <h2 id="incidents-heading">Incidents</h2>
        <form className="filters" method="get" aria-label="Filter incidents">
          <label>
            Impact{" "}
            <select name="impact" defaultValue={query.data.impact ?? ""}>
              <option value="">any</option>
              {["critical", "major", "minor", "none", "maintenance", "unknown"].map((i) => <option key={i} value={i}>{i}</option>)}
            </select>
          </label>{" "}
          <label>
            Status{" "}
            <select name="status" defaultValue={query.data.status ?? ""}>
              <option value="">any</option>
              {statuses.map((s) => <option key={s} value={s}>{statusLabel(s)}</option>)}
            </select>
          </label>{" "}
          <label>
            Component{" "}
            <select name="component" defaultValue={query.data.component ?? ""}>
              <option value="">any</option>
              {components.map((c) => <option key={c} value={c}>{c}</option>)}
            </select>
          </label>{" "}
          <label>Since <input type="date" name="since" defaultValue={query.data.since ?? ""} /></label>{" "}
          <label>Until <input type="date" name="until" defaultValue={query.data.until ?? ""} /></label>{" "}
          <button type="submit">Filter</button>
        </form>
        {list.rows.length === 0 ? (
          <p>No incident matches.</p>
        ) : (
          <div className="table-scroll">
            <table>
              <caption className="visually-hidden">{vendor.name} incidents, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Started (UTC)</th>
                  <th scope="col">Incident</th>
                  <th scope="col">Impact</th>
                  <th scope="col">Status</th>
                  <th scope="col">Duration</th>
                  <th scope="col" className="number">Versions</th>
                </tr>
              </thead>
              <tbody>
                {list.rows.map((i) => (
                  <tr key={i.id}>
                    <td className="nowrap" data-label="Started (UTC)"><UtcTime iso={i.startedAt ?? i.firstSeenAt} relative={false} /></td>
                    <td data-label="Incident">
                      <a href={paths.incident(vendor.slug, i.providerId)}>{i.title || "(untitled)"}</a>
                      {i.kind === "maintenance" ? <span className="muted small"> maintenance</span> : null}
                      {i.postmortemAt ? <span className="badge">postmortem</span> : null}
                    </td>
                    <td data-label="Impact"><ImpactBadge impact={i.impact} /></td>
                    <td data-label="Status"><IncidentStateText incident={i} feed={feedOf(i.source)} /></td>
                    <td className="nowrap" data-label="Duration">{i.startedAt && i.resolvedAt ? formatDuration(Date.parse(i.resolvedAt) - Date.parse(i.startedAt)) : <span className="muted">—</span>}</td>
                    <td className="number" data-label="Versions">{i.versionCount}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager basePath={paths.vendor(vendor.slug)} params={raw} next={list.next} isFirst={!before} />
      </section>
    </>
  );
}
