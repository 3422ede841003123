import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { alternatesMetadata } from "@/components/feed-links";
import { ChangePageBody, changePageAlternates, changePageTitle } from "@/components/change-page";
import { versionRoute } from "@/app/vendors/[slug]/incidents/[key]/route-data";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; key: string; seq: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { slug, key, seq } = await params;
  const route = await versionRoute(slug, key, seq);
  if (!route) return { title: "Not found" };
  return { title: changePageTitle(route), alternates: alternatesMetadata(changePageAlternates(route)) };
}

/** The web server answers this address itself (server/archive-pages.tsx); Next renders it in development. */
export default async function ChangePage({ params }: Props) {
  const { slug, key, seq } = await params;
  const route = await versionRoute(slug, key, seq);
  if (!route) notFound();
  return <ChangePageBody route={route} />;
}
