import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { feedAlternates } from "@/components/feed-links";
import { IncidentPageBody, incidentPageTitle } from "@/components/incident-page";
import { incidentRoute } from "@/app/vendors/[slug]/incidents/[key]/route-data";
import { paths } from "@/lib/incident-key";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; key: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, key } = await params;
  const route = incidentRoute(slug, key);
  if (!route) return { title: "Not found" };
  const title = incidentPageTitle(route);
  return { title, alternates: feedAlternates((f) => paths.incidentFeed(route.vendor.slug, route.incident.providerId, f), title) };
}

/** The web server answers this address itself (server/archive-pages.tsx); Next renders it in development. */
export default async function IncidentPage({ params }: Props) {
  const { slug, key } = await params;
  const route = incidentRoute(slug, key);
  if (!route) notFound();
  return <IncidentPageBody route={route} now={new Date()} />;
}
