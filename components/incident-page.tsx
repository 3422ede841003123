import { ImpactBadge } from "@/components/badges";
import { FeedLinks, feedAlternateLinks } from "@/components/feed-links";
import { HistoryTable } from "@/components/history-table";
import { FirstArchived, IncidentLinks } from "@/components/incident-links";
import { IncidentTimingSection } from "@/components/incident-timing";
import { PostmortemBody } from "@/components/postmortem-body";
import { UpdateTimeline } from "@/components/update-timeline";
import { UtcTime } from "@/components/utc-time";
import type { IncidentPageRoute, IncidentRoute } from "@/db/queries/incident-route";
import { formatDuration } from "@/lib/format";
import { describeImpactHistory, impactEndOf, impactSteps } from "@/lib/impact-history";
import { paths } from "@/lib/incident-key";
import { statusLabel } from "@/lib/labels";
import { readNowRules } from "@/lib/now-rules";
import { describeStillOpen } from "@/lib/vendor-now";

/** The incident page's title (before " · Redline"). */
export function incidentPageTitle(route: IncidentRoute): string {
  return `${route.vendor.name}: ${route.incident.current.incident.title}`;
}

export function incidentPageAlternates(route: IncidentRoute) {
  return feedAlternateLinks((f) => paths.incidentFeed(route.vendor.slug, route.incident.providerId, f), incidentPageTitle(route));
}

/**
 * An incident's page: its story at the top (impact with its history, status, window, components,
 * the change history), then the update timeline and the postmortem. Rendered by Next
 * (app/vendors/[slug]/incidents/[key]/page.tsx) and by the web server without it
 * (server/archive-pages.tsx), so it holds no Next-only element.
 */
export function IncidentPageBody({ route, now }: { route: IncidentPageRoute; now: Date }) {
  const { vendor, incident } = route;
  const { incident: current, presence } = incident.current;
  const count = incident.versions.length;
  const intervalMs = vendor.intervalSeconds ? vendor.intervalSeconds * 1000 : readNowRules().defaultIntervalMs;
  const stillOpen = describeStillOpen(current, route.capturedAt, intervalMs, now);
  const openUntil = (stillOpen.current ? null : stillOpen.asOf) ?? now.toISOString();
  const impactNote = describeImpactHistory(
    impactSteps(
      incident.versions.flatMap((v) => (v.impact === undefined ? [] : [{ observedAt: v.observedAt, impact: v.impact }])),
      impactEndOf(current, presence, incident.versions, openUntil),
    ),
  );
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/">Changes</a> / <a href={paths.vendor(vendor.slug)}>{vendor.name}</a> / {current.title || "(untitled)"}
      </nav>
      <h1>{current.title || "(untitled)"}</h1>
      <dl className="facts incident-facts">
        <div className="fact-impact">
          <dt>Impact</dt>
          <dd>
            <ImpactBadge impact={current.impact} />
            {impactNote ? <span className="impact-history"> {impactNote}</span> : null}
          </dd>
        </div>
        <div><dt>Status</dt><dd>{current.status ? statusLabel(current.status) : "not stated"}{presence !== "listed" ? <span className="muted"> ({presence === "deleted" ? "deleted by the vendor" : "no longer listed"})</span> : null}</dd></div>
        {current.kind === "maintenance" ? (
          <div><dt>Window</dt><dd><UtcTime iso={current.scheduledFor} relative={false} /> to <UtcTime iso={current.scheduledUntil} relative={false} /></dd></div>
        ) : null}
        <div><dt>Started</dt><dd><UtcTime iso={current.startedAt} now={now} /></dd></div>
        <div>
          <dt>Resolved</dt>
          <dd>
            {current.resolvedAt ? (
              <>
                <UtcTime iso={current.resolvedAt} now={now} />
                {current.startedAt ? <> (after {formatDuration(Date.parse(current.resolvedAt) - Date.parse(current.startedAt))})</> : null}
              </>
            ) : presence !== "listed" || current.status === null ? (
              // A source that states no status (a plain feed) states no resolution: the incident is not called open.
              <span className="muted">not stated by the vendor</span>
            ) : stillOpen.current ? (
              <>
                not yet
                {stillOpen.openForMs !== null ? <span className="muted"> (open for {formatDuration(stillOpen.openForMs)})</span> : null}
              </>
            ) : (
              <>
                not as of the last capture{stillOpen.asOf ? <>, <UtcTime iso={stillOpen.asOf} now={now} /></> : null}
                {stillOpen.openForMs !== null ? <span className="muted"> (open for {formatDuration(stillOpen.openForMs)} by then)</span> : null}
              </>
            )}
          </dd>
        </div>
        <div className="fact-components">
          <dt>Components</dt>
          <dd>
            {current.components.length > 0
              ? current.components.map((c, i) => (
                  <span key={c.id}>
                    {i > 0 ? ", " : ""}
                    {route.componentPages.has(c.id) ? <a href={paths.component(vendor.slug, c.id)}>{c.name}</a> : c.name}
                  </span>
                ))
              : <span className="muted">not stated</span>}
          </dd>
        </div>
      </dl>
      <FirstArchived firstSeenAt={incident.firstSeenAt} url={current.url} />
      <IncidentTimingSection timing={route.timing} vendorSlug={vendor.slug} />

      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History of this incident</h2>
        <p className="muted small">
          {count === 1 ? "1 archived version" : `${count} archived versions`}, newest first, each with what it changed.
          {count > 1 ? (
            <>
              {" "}
              <a href={paths.compare(vendor.slug, incident.providerId, 1, count)}>
                Compare the first and latest versions
              </a>
            </>
          ) : null}
        </p>
        <HistoryTable vendorSlug={vendor.slug} providerId={incident.providerId} versions={incident.versions} />
      </section>

      <section aria-labelledby="timeline-heading">
        <h2 id="timeline-heading">Update timeline</h2>
        <UpdateTimeline updates={current.updates} late={new Map(route.timing.postedLate.updates.map((u) => [u.updateId, u]))} postmortem={current.postmortem} />
      </section>

      {current.postmortem ? (
        <section aria-labelledby="postmortem-heading">
          <h2 id="postmortem-heading">Postmortem</h2>
          <PostmortemBody postmortem={current.postmortem} />
        </section>
      ) : null}

      <IncidentLinks vendor={vendor} providerId={incident.providerId} />
      <FeedLinks feedPath={(f) => paths.incidentFeed(vendor.slug, incident.providerId, f)} label="this incident's changes" />
    </>
  );
}
