import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ComponentPageBody, componentPageTitle } from "@/components/component-page";
import { resolveComponentPage } from "@/db/queries/component-page";
import { getServerDb } from "@/db/driver/server-db";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string; key: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Read once per request: generateMetadata and the page ask for the same page. */
const componentPage = cache(async (slug: string, key: string, query: string) => {
  const now = new Date();
  const page = await resolveComponentPage(getServerDb(), slug, key, query, now);
  return page ? { page, now } : undefined;
});

async function load({ params, searchParams }: Props) {
  const { slug, key } = await params;
  const raw = await searchParams;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, v);
  return componentPage(slug, componentKeyOf(key), query.toString());
}

/** The vendor's key from the path segment: percent-decoded, or as given when Next decoded it already. */
function componentKeyOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const found = await load(props);
  return { title: found ? componentPageTitle(found.page) : "Not found" };
}

export default async function ComponentPage(props: Props) {
  const found = await load(props);
  if (!found) notFound();
  return <ComponentPageBody page={found.page} now={found.now} />;
}
