import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { alternatesMetadata } from "@/components/feed-links";
import { IncidentPageBody, incidentPageAlternates, incidentPageTitle } from "@/components/incident-page";
import { incidentRoute } from "@/app/vendors/[slug]/incidents/[key]/route-data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; key: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, key } = await params;
  const route = await incidentRoute(slug, key);
  if (!route) return { title: "Not found" };
  return { title: incidentPageTitle(route), alternates: alternatesMetadata(incidentPageAlternates(route)) };
}

/** The web server answers this address itself (server/archive-pages.tsx); Next renders it in development. */
export default async function IncidentPage({ params }: Props) {
  const { slug, key } = await params;
  const route = await incidentRoute(slug, key);
  if (!route) notFound();
  return <IncidentPageBody route={route} now={new Date()} />;
}
