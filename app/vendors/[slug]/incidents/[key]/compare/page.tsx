import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { WhatChanged } from "@/components/change-diff";
import { CompareForm } from "@/components/compare-form";
import { IncidentLinks } from "@/components/incident-links";
import { getVersionDetail } from "@/db/queries/incident-page";
import { resolveIncidentRoute } from "@/db/queries/incident-route";
import { getServerDb } from "@/db/driver/server-db";
import { orderChanges } from "@/lib/change-order";
import { diffStates } from "@/lib/diff-incidents";
import { formatUtcMinute } from "@/lib/format";
import { paths } from "@/lib/incident-key";
import { compareParamsSchema } from "@/lib/page-params";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Compare versions" };

type Props = { params: Promise<{ slug: string; key: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ComparePage({ params, searchParams }: Props) {
  const { slug, key } = await params;
  const query = compareParamsSchema.safeParse(await searchParams);
  const db = getServerDb();
  const route = await resolveIncidentRoute(db, slug, key);
  if (!route || !query.success) notFound();
  const { vendor, incident } = route;
  const from = await getVersionDetail(db, incident.id, query.data.from);
  const to = await getVersionDetail(db, incident.id, query.data.to);
  if (!from || !to) notFound();
  const changes = orderChanges(diffStates(from.snapshot, to.snapshot));
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/">Changes</a> / <a href={paths.vendor(vendor.slug)}>{vendor.name}</a> /{" "}
        <a href={paths.incident(vendor.slug, incident.providerId)}>{incident.current.incident.title || "(untitled)"}</a>
      </nav>
      <h1>
        {vendor.name}: compare versions {from.seq} and {to.seq}: {to.snapshot.incident.title || "(untitled)"}
      </h1>
      <p className="muted">
        Version {from.seq} observed <time dateTime={from.observedAt}>{formatUtcMinute(from.observedAt)}</time>; version {to.seq} observed{" "}
        <time dateTime={to.observedAt}>{formatUtcMinute(to.observedAt)}</time>.
      </p>
      <section aria-labelledby="changed-heading">
        <h2 id="changed-heading">What changed</h2>
        <WhatChanged changes={changes} />
      </section>
      <CompareForm action={`${paths.incident(vendor.slug, incident.providerId)}/compare`} versions={incident.versions} from={from.seq} to={to.seq} />
      <IncidentLinks vendor={vendor} providerId={incident.providerId} />
    </>
  );
}
