import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { SearchPageBody } from "@/components/search-page";
import { getServerDb } from "@/db/driver/server-db";
import { loadSearchView } from "@/server/search/view";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Search" };

/**
 * The web server renders this page itself (server/search/page.tsx), so a search stopped at its
 * budget can be a 503; Next renders it for its client router and in development, a stopped search
 * said on the page.
 */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = await searchParams;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(raw)) for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(key, one);
  const loaded = await loadSearchView(getServerDb(), params, new Date());
  if (loaded === null) notFound();
  return <SearchPageBody view={loaded.view} />;
}
