import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BarChart } from "@/components/bar-chart";
import { loadComponentFigureFacts } from "@/db/queries/component-figures";
import { getArchivedInstants, getVendor, listIncidentFacts } from "@/db/queries/vendor-profile";
import { listVendorNames } from "@/db/queries/vendor-names";
import { listSourceStandings } from "@/db/queries/vendor-now";
import { getServerDb } from "@/db/driver/server-db";
import { paths } from "@/lib/incident-key";
import { vendorComparisonParamsSchema } from "@/lib/page-params";
import { readNowRules } from "@/lib/now-rules";
import { archivedRangeOf, reportPeriod } from "@/lib/report-period";
import { comparisonRange, comparisonRows, compareVendors } from "@/lib/vendor-comparison";
import { feedsBySource } from "@/lib/vendor-now";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare vendors" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ComparePage({ searchParams }: Props) {
  const query = vendorComparisonParamsSchema.safeParse(await searchParams);
  if (!query.success) notFound();
  const db = getServerDb();
  const all = await listVendorNames(db);
  const slugs = query.data.vendors ?? [];
  const vendors = await Promise.all(slugs.map((s) => getVendor(db, s)));
  if (vendors.some((v) => v === undefined)) notFound();
  const picked = new Set(slugs.length > 0 ? slugs : query.data.pick ? [query.data.pick] : []);
  const chosen = vendors.filter((v) => v !== undefined);
  const ranges = (await Promise.all(chosen.map((v) => getArchivedInstants(db, v.id)))).map(archivedRangeOf);
  const range = comparisonRange(ranges);
  const now = new Date();
  const period = reportPeriod(query.data, range, now);
  const facts = await Promise.all(chosen.map((v) => listIncidentFacts(db, v.id, period.sinceAt, period.untilAt)));
  const feeds = await Promise.all(chosen.map(async (v) => feedsBySource(await listSourceStandings(db, v.id, readNowRules().profileOf))));
  const grids = await Promise.all(chosen.map((v) => loadComponentFigureFacts(db, v, { from: period.sinceAt, to: period.untilAt }, now, readNowRules())));
  const compared = compareVendors(
    chosen.map((v, i) => ({
      slug: v.slug, name: v.name, facts: facts[i] ?? [], archived: ranges[i] ?? { first: null, last: null }, feedOf: feeds[i] ?? (() => null), grid: grids[i],
    })),
    { from: period.sinceAt, to: `${period.until}T23:59:59.999Z` },
  );
  return (
    <>
      <h1>Compare vendors</h1>
      <p className="lede">Two to four vendors side by side over one period: how often they have incidents, how long these last, how often a postmortem follows, how much they edit afterwards, and how their component grids looked when Redline watched them.</p>
      <form className="filters" method="get" action="/compare" aria-label="Vendors to compare">
        <fieldset>
          <legend>Vendors (two to four)</legend>
          <div className="kind-options">
            {all.map((v) => (
              <label key={v.slug}>
                <input type="checkbox" name="vendors" value={v.slug} defaultChecked={picked.has(v.slug)} /> {v.name}
              </label>
            ))}
          </div>
        </fieldset>
        <label>Since <input type="date" name="since" defaultValue={compared.length > 0 ? period.since : (query.data.since ?? "")} /></label>
        <label>Until <input type="date" name="until" defaultValue={compared.length > 0 ? period.until : (query.data.until ?? "")} /></label>
        <button type="submit">Compare</button>
      </form>
      {compared.length === 0 ? (
        <p>Pick two to four vendors above.</p>
      ) : (
        <section aria-labelledby="comparison-heading">
          <h2 id="comparison-heading">{period.since} to {period.until}</h2>
          {period.wholeArchive ? (
            <p className="muted small">
              {new Set(compared.map((c) => c.archivedMonths)).size === 1
                ? "The span all their archives cover; pick dates to change it."
                : "Their archives cover different spans: the period holds all of them, and rates count only the months each vendor\u2019s archive covers."}
            </p>
          ) : null}
          <div className="table-scroll">
            <table className="comparison">
              <caption className="visually-hidden">Figures of {compared.map((c) => c.name).join(", ")}, {period.since} to {period.until}</caption>
              <thead>
                <tr>
                  <td />
                  {compared.map((c) => (
                    <th key={c.slug} scope="col">
                      <a href={paths.vendor(c.slug)}>{c.name}</a>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {comparisonRows(compared).map((row) => (
                  <tr key={row.label}>
                    <th scope="row">{row.label}</th>
                    {row.values.map((value, i) => <td key={compared[i]?.slug ?? i} data-label={compared[i]?.name}>{value}</td>)}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <h2>Incidents per month</h2>
          <p className="muted small">Every chart has the same scale.</p>
          <div className="comparison-charts">
            {compared.map((c) => (
              <div key={c.slug}>
                <h3>{c.name}</h3>
                <BarChart scale={Math.max(0, ...compared.flatMap((v) => v.figures.perMonth.map((m) => m.count)))} label={`${c.name} incidents per month`} data={c.figures.perMonth.map((m) => ({ label: m.month, value: m.count }))} />
              </div>
            ))}
          </div>
        </section>
      )}
    </>
  );
}
