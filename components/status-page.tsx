import { OpenIncidentList, StatusGrid } from "@/components/status-grid";
import type { StatusAnswer } from "@/db/queries/status-page";
import type { StatusPage } from "@/lib/components/status-view";
import { statusPageHref } from "@/lib/components/status-links";
import { formatUtcMinute, formatUtcSecond } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import { nextObservedPhrase, observedPhrase, openWhen, standingPhrase } from "@/lib/render/status-text";

/** The picker's value: the moment in UTC as a datetime-local input holds it (to the second, no zone). */
function pickerValue(iso: string): string {
  return iso.slice(0, 19);
}

/** A plain GET form: the moment to see the page at, as UTC; it works without script. */
function TimePicker({ slug, at }: { slug: string; at: string }) {
  return (
    <form className="filters" method="get" action={statusPageHref(slug)} aria-label="Moment">
      <label>
        Moment (UTC) <input type="datetime-local" name="at" step="1" defaultValue={pickerValue(at)} />
      </label>{" "}
      <button type="submit">Show the page then</button> <a href={statusPageHref(slug)}>Now</a>
    </form>
  );
}

function ChangeLink({ slug, at, rel, children }: { slug: string; at: string | null; rel: "prev" | "next"; children: string }) {
  if (at === null) return <span className="muted">{rel === "prev" ? "No earlier change" : "No later change"}</span>;
  return (
    <a href={statusPageHref(slug, at)} rel={rel}>
      {children} (<time dateTime={at}>{formatUtcSecond(at)}</time>)
    </a>
  );
}

function Observed({ page }: { page: StatusPage }) {
  const standing = standingPhrase(page);
  const observed = observedPhrase(page);
  return (
    <>
      {standing ? (
        <p>
          <span className="now-unknown">Unknown</span> {standing.replace(/^Unknown /, "")}
        </p>
      ) : null}
      {observed ? (
        <p>
          {observed[0]?.toUpperCase()}
          {observed.slice(1)}; {nextObservedPhrase(page)}.
        </p>
      ) : null}
    </>
  );
}

/**
 * The vendor's status page as it was at a moment (or now): the grid as observed then, the
 * incidents open then at their version of then, the capture it rests on, the page's changes on
 * either side, and a picker for another moment.
 */
export function StatusPageBody({ vendor, asked, answer }: { vendor: { slug: string; name: string }; asked: string | null; answer: StatusAnswer }) {
  const slug = vendor.slug;
  const when = asked === null ? "now" : `at ${formatUtcMinute(asked)}`;
  const breadcrumb = (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <a href="/vendors">Vendors</a> / <a href={paths.vendor(slug)}>{vendor.name}</a> / Status page
    </nav>
  );
  if ("refused" in answer) {
    return (
      <>
        {breadcrumb}
        <h1>{vendor.name} status page {when}</h1>
        <p>{answer.refused}.</p>
        {answer.firstObservedAt ? (
          <p>
            <a href={statusPageHref(slug, answer.firstObservedAt)}>See the page as first captured, at {formatUtcMinute(answer.firstObservedAt)}</a>
          </p>
        ) : null}
        <TimePicker slug={slug} at={asked ?? answer.firstObservedAt ?? new Date().toISOString()} />
      </>
    );
  }
  const { page } = answer;
  // The API's address is the page's under /api/v1.
  const json = `/api/v1${statusPageHref(slug, asked)}`;
  return (
    <>
      {breadcrumb}
      <h1>{vendor.name} status page {when}</h1>
      <Observed page={page} />
      {page.view.observedAt !== null ? (
        <nav aria-label="Changes of this page" className="version-nav">
          <ChangeLink slug={slug} at={page.previousChange} rel="prev">← Previous change</ChangeLink>
          {page.currentChange !== null ? (
            <span className="muted small">
              As changed at <time dateTime={page.currentChange}>{formatUtcSecond(page.currentChange)}</time>
            </span>
          ) : null}
          <ChangeLink slug={slug} at={page.nextChange} rel="next">Next change →</ChangeLink>
        </nav>
      ) : null}
      <TimePicker slug={slug} at={page.view.at} />
      <section aria-labelledby="grid-heading">
        <h2 id="grid-heading">Components</h2>
        <StatusGrid slug={slug} groups={page.groups} headingLevel={3} />
      </section>
      <section aria-labelledby="open-heading">
        <h2 id="open-heading">Incidents open {openWhen(page)}</h2>
        {page.incidents.length === 0 ? <p>No incident open.</p> : <OpenIncidentList slug={slug} incidents={page.incidents} />}
      </section>
      <p className="links small">
        <a href={json} type="application/json">This view as JSON</a>
      </p>
    </>
  );
}
