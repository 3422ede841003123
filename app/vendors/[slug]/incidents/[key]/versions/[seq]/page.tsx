import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { feedAlternates } from "@/components/feed-links";
import { KindBadges } from "@/components/badges";
import { WhatChanged } from "@/components/change-diff";
import { CompareForm } from "@/components/compare-form";
import { HistoryTable } from "@/components/history-table";
import { FirstArchived, IncidentLinks } from "@/components/incident-links";
import { versionRoute } from "@/app/vendors/[slug]/incidents/[key]/route-data";
import { headingKindLabel } from "@/lib/change-kinds";
import { orderChanges } from "@/lib/change-order";
import { formatUtcMinute } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import { MACHINE_SUMMARY_NOTICE } from "@/lib/summarize";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; key: string; seq: string }> };

function headingOf(route: NonNullable<ReturnType<typeof versionRoute>>): string {
  const { heading } = route.version;
  return `${route.vendor.name}: ${headingKindLabel(route.version.kinds, heading)}: ${heading.title || "(untitled)"}`;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, key, seq } = await params;
  const route = versionRoute(slug, key, seq);
  if (!route) return { title: "Not found" };
  return { title: headingOf(route), alternates: feedAlternates((f) => paths.incidentFeed(route.vendor.slug, route.incident.providerId, f), `${route.vendor.name}: ${route.incident.current.incident.title}`) };
}

export default async function ChangePage({ params }: Props) {
  const { slug, key, seq } = await params;
  const route = versionRoute(slug, key, seq);
  if (!route) notFound();
  const { vendor, incident, version } = route;
  const title = version.heading.title || "(untitled)";
  const previous = version.seq > 1 ? version.seq - 1 : null;
  const next = version.seq < incident.versionCount ? version.seq + 1 : null;
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Changes</Link> / <Link href={paths.vendor(vendor.slug)}>{vendor.name}</Link> /{" "}
        <Link href={paths.incident(vendor.slug, incident.providerId)}>{incident.current.incident.title || "(untitled)"}</Link>
      </nav>
      <h1>{headingOf(route)}</h1>
      <p className="muted">
        Version {version.seq} of {incident.versionCount}, observed <time dateTime={version.observedAt}>{formatUtcMinute(version.observedAt)}</time>{" "}
        <KindBadges kinds={version.kinds} />
      </p>
      {previous !== null || next !== null ? (
        <nav aria-label="Versions" className="version-nav">
          {previous !== null ? <Link href={paths.version(vendor.slug, incident.providerId, previous)} rel="prev">← Previous version</Link> : null}
          {next !== null ? <Link href={paths.version(vendor.slug, incident.providerId, next)} rel="next">Next version →</Link> : null}
        </nav>
      ) : null}
      <section aria-labelledby="changed-heading">
        <h2 id="changed-heading">What changed</h2>
        <WhatChanged changes={orderChanges(version.changes, { isFirst: version.seq === 1 })} />
      </section>
      <section aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <p>{version.summary}</p>
        <p className="notice">{MACHINE_SUMMARY_NOTICE}</p>
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
