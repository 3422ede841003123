import type { Metadata } from "next";
import { ChangeList } from "@/components/change-list";
import { changesFeedPath, FeedLinks, feedAlternates } from "@/components/feed-links";
import { KindFilter } from "@/components/kind-filter";
import { Pager } from "@/components/pager";
import { listChanges } from "@/db/queries/changes";
import { decodeCursor } from "@/db/queries/prepared";
import { getVendor } from "@/db/queries/vendor-profile";
import { getServerDb } from "@/db/server-db";
import { listVendorNames } from "@/db/queries/vendor-names";
import { changesParamsSchema } from "@/lib/page-params";
import { notFound } from "next/navigation";

export const dynamic = "force-dynamic";
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const query = changesParamsSchema.safeParse(await searchParams);
  const filter = query.success ? { vendorSlug: query.data.vendor, kinds: query.data.kind } : {};
  return { title: { absolute: "Latest changes · Redline" }, alternates: feedAlternates(changesFeedPath(filter), "Redline changes") };
}

const PAGE_SIZE = 50;

export default async function HomePage({ searchParams }: Props) {
  const raw = await searchParams;
  const params = changesParamsSchema.safeParse(raw);
  if (!params.success) notFound();
  const db = getServerDb();
  const vendor = params.data.vendor ? getVendor(db, params.data.vendor) : undefined;
  if (params.data.vendor && !vendor) notFound();
  const before = params.data.before ? decodeCursor(params.data.before) : null;
  const page = listChanges(db, { kinds: params.data.kind, vendorId: vendor?.id, before }, PAGE_SIZE);
  const vendors = listVendorNames(db);
  const now = new Date();
  return (
    <>
      <h1>Latest changes</h1>
      <p className="lede">Every version Redline archived, newest first: new incidents, and the edits vendors make to them after the fact.</p>
      <KindFilter action="/" selected={params.data.kind ?? []} vendors={vendors.map((v) => ({ slug: v.slug, name: v.name }))} vendor={params.data.vendor} />
      <FeedLinks feedPath={changesFeedPath({ vendorSlug: params.data.vendor, kinds: params.data.kind })} label={params.data.kind || params.data.vendor ? "these changes" : "every change"} />
      <ChangeList rows={page.rows} now={now} />
      <Pager basePath="/" params={raw} next={page.next} isFirst={!before} />
    </>
  );
}
