import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ChangeList } from "@/components/change-list";
import { changesFeedPath, FeedLinks, feedAlternates } from "@/components/feed-links";
import { KindFilter } from "@/components/kind-filter";
import { Pager } from "@/components/pager";
import { listChanges } from "@/db/queries/changes";
import { decodeCursor } from "@/db/driver/prepared";
import { getVendor } from "@/db/queries/vendor-profile";
import { getServerDb } from "@/db/driver/server-db";
import { paths } from "@/lib/incident-key";
import { vendorChangesParamsSchema } from "@/lib/page-params";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const vendor = await getVendor(getServerDb(), (await params).slug);
  if (!vendor) return { title: "Not found" };
  const query = vendorChangesParamsSchema.safeParse(await searchParams);
  const kinds = query.success ? (query.data.kind ?? []) : [];
  return { title: `${vendor.name} changes`, alternates: feedAlternates(changesFeedPath({ vendorSlug: vendor.slug, kinds }), `${vendor.name} changes`) };
}

export default async function VendorChangesPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const raw = await searchParams;
  const query = vendorChangesParamsSchema.safeParse(raw);
  const db = getServerDb();
  const vendor = await getVendor(db, slug);
  if (!vendor || !query.success) notFound();
  const before = query.data.before ? decodeCursor(query.data.before) : null;
  const page = await listChanges(db, { kinds: query.data.kind, vendorId: vendor.id, before }, 50);
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/">Changes</a> / <a href={paths.vendor(vendor.slug)}>{vendor.name}</a>
      </nav>
      <h1>All {vendor.name} changes</h1>
      <KindFilter action={paths.vendorChanges(vendor.slug)} selected={query.data.kind ?? []} quietLink />
      <FeedLinks feedPath={changesFeedPath({ vendorSlug: vendor.slug, kinds: query.data.kind })} label={query.data.kind ? "these changes" : `every ${vendor.name} change`} />
      <ChangeList rows={page.rows} now={new Date()} showVendor={false} />
      <Pager basePath={paths.vendorChanges(vendor.slug)} params={raw} next={page.next} isFirst={!before} />
    </>
  );
}
