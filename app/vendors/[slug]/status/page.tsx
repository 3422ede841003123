import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { StatusPageBody } from "@/components/status-page";
import { findStatusPage } from "@/db/queries/status-page";
import { getVendor } from "@/db/queries/vendor-profile";
import { getServerDb } from "@/db/driver/server-db";
import { formatUtcMinute } from "@/lib/format";
import { readNowRules } from "@/lib/now-rules";
import { statusPageParamsSchema } from "@/lib/page-params";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ slug: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const vendor = await getVendor(getServerDb(), (await params).slug);
  if (!vendor) return { title: "Not found" };
  const query = statusPageParamsSchema.safeParse(await searchParams);
  const at = query.success ? query.data.at : undefined;
  return { title: at ? `${vendor.name} status page at ${formatUtcMinute(at)}` : `${vendor.name} status page now` };
}

export default async function VendorStatusPage({ params, searchParams }: Props) {
  const { slug } = await params;
  const query = statusPageParamsSchema.safeParse(await searchParams);
  const db = getServerDb();
  const vendor = await getVendor(db, slug);
  if (!vendor || !query.success) notFound();
  const answer = await findStatusPage(db, vendor.slug, query.data.at ?? null, readNowRules(), new Date());
  if (!answer) notFound();
  return <StatusPageBody vendor={vendor} asked={query.data.at ?? null} answer={answer} />;
}
