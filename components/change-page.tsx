import { KindBadges } from "@/components/badges";
import { WhatChanged } from "@/components/change-diff";
import { CompareForm } from "@/components/compare-form";
import { feedAlternateLinks } from "@/components/feed-links";
import { HistoryTable } from "@/components/history-table";
import { FirstArchived, IncidentLinks } from "@/components/incident-links";
import type { VersionRoute } from "@/db/queries/incident-route";
import { headingKindLabel } from "@/lib/change-kinds";
import { orderChanges } from "@/lib/change-order";
import { formatUtcMinute } from "@/lib/format";
import { statusPageHref } from "@/lib/components/status-links";
import { paths } from "@/lib/incident-key";
import { MACHINE_SUMMARY_NOTICE } from "@/lib/summarize";

/** The change page's title (before " · Redline"): vendor, the change's kind, the incident's title then. */
export function changePageTitle(route: VersionRoute): string {
  const { heading } = route.version;
  return `${route.vendor.name}: ${headingKindLabel(route.version.kinds, heading)}: ${heading.title || "(untitled)"}`;
}

export function changePageAlternates(route: VersionRoute) {
  return feedAlternateLinks((f) => paths.incidentFeed(route.vendor.slug, route.incident.providerId, f), `${route.vendor.name}: ${route.incident.current.incident.title}`);
}

/**
 * One version's page: its machine-written summary, then the diff it is written from (what
 * changed, by significance) and the incident's history. Rendered by Next and by the web server
 * without it (server/archive-pages.tsx).
 */
export function ChangePageBody({ route }: { route: VersionRoute }) {
  const { vendor, incident, version } = route;
  const title = version.heading.title || "(untitled)";
  const previous = version.seq > 1 ? version.seq - 1 : null;
  const next = version.seq < incident.versionCount ? version.seq + 1 : null;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/">Changes</a> / <a href={paths.vendor(vendor.slug)}>{vendor.name}</a> /{" "}
        <a href={paths.incident(vendor.slug, incident.providerId)}>{incident.current.incident.title || "(untitled)"}</a>
      </nav>
      <h1>{changePageTitle(route)}</h1>
      <p className="muted">
        Version {version.seq} of {incident.versionCount}, observed <time dateTime={version.observedAt}>{formatUtcMinute(version.observedAt)}</time>{" "}
        <KindBadges kinds={version.kinds} />{" "}
        <a href={statusPageHref(vendor.slug, version.observedAt)}>See {vendor.name}&rsquo;s page as it was then</a>
      </p>
      {previous !== null || next !== null ? (
        <nav aria-label="Versions" className="version-nav">
          {previous !== null ? <a href={paths.version(vendor.slug, incident.providerId, previous)} rel="prev">← Previous version</a> : null}
          {next !== null ? <a href={paths.version(vendor.slug, incident.providerId, next)} rel="next">Next version →</a> : null}
        </nav>
      ) : null}
      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <p>{version.summary}</p>
        <p className="notice">{MACHINE_SUMMARY_NOTICE}</p>
      </section>
      <section aria-labelledby="changed-heading">
        <h2 id="changed-heading">What changed</h2>
        <WhatChanged changes={orderChanges(version.changes, { isFirst: version.seq === 1 })} />
      </section>
      <FirstArchived firstSeenAt={incident.firstSeenAt} url={incident.current.incident.url} />
      <CompareForm action={`${paths.incident(vendor.slug, incident.providerId)}/compare`} versions={incident.versions} from={previous ?? 1} to={version.seq} />
      <section aria-labelledby="history-heading">
        <h2 id="history-heading">History of this incident</h2>
        <HistoryTable vendorSlug={vendor.slug} providerId={incident.providerId} versions={incident.versions} current={version.seq} />
      </section>
      <IncidentLinks vendor={vendor} providerId={incident.providerId} seq={version.seq} />
      <p className="visually-hidden">{title}</p>
    </>
  );
}
