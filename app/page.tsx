import type { Metadata } from "next";
import { CalendarLink } from "@/components/calendar-link";
import { ChangeList } from "@/components/change-list";
import { changesFeedPath, FeedLinks, feedAlternates } from "@/components/feed-links";
import { KindFilter } from "@/components/kind-filter";
import { Pager } from "@/components/pager";
import { listChanges } from "@/db/queries/changes";
import { decodeCursor } from "@/db/queries/prepared";
import { getVendor } from "@/db/queries/vendor-profile";
import { getServerDb } from "@/db/server-db";
import { listVendorNames } from "@/db/queries/vendor-names";
import { paths } from "@/lib/incident-key";
import { changesParamsSchema } from "@/lib/page-params";
import { HOME_TABS, type HomeTab, homeSelection } from "@/lib/quiet-edits";
import { notFound } from "next/navigation";

export const dynamic = "force-dynamic";
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const query = changesParamsSchema.safeParse(await searchParams);
  const filter = query.success ? { vendorSlug: query.data.vendor, kinds: homeSelection(query.data).kinds } : {};
  return { title: { absolute: "Latest changes · Redline" }, alternates: feedAlternates(changesFeedPath(filter), "Redline changes") };
}

const PAGE_SIZE = 50;

const LEDES: Record<HomeTab | "custom", string> = {
  quiet: "What vendors changed after the fact, newest first: rewritten, removed or backdated updates, lowered impacts, moved times, postmortems and deleted incidents.",
  new: "Incidents as Redline first archived them, newest first.",
  all: "Every version Redline archived, newest first: new incidents, updates, resolutions and the edits vendors make after the fact.",
  custom: "The kinds of change picked below, newest first.",
};

function tabHref(tab: HomeTab, vendor: string | undefined): string {
  const search = new URLSearchParams();
  if (tab !== "quiet") search.set("show", tab);
  if (vendor) search.set("vendor", vendor);
  const query = search.toString();
  return query ? `/?${query}` : "/";
}

export default async function HomePage({ searchParams }: Props) {
  const raw = await searchParams;
  const params = changesParamsSchema.safeParse(raw);
  if (!params.success) notFound();
  const db = getServerDb();
  const vendor = params.data.vendor ? await getVendor(db, params.data.vendor) : undefined;
  if (params.data.vendor && !vendor) notFound();
  const selection = homeSelection(params.data);
  const before = params.data.before ? decodeCursor(params.data.before) : null;
  const page = await listChanges(db, { kinds: selection.kinds, vendorId: vendor?.id, before }, PAGE_SIZE);
  const vendors = await listVendorNames(db);
  const now = new Date();
  return (
    <>
      <h1>Latest changes</h1>
      <nav className="tabs" aria-label="Which changes">
        <ul>
          {HOME_TABS.map((t) => (
            <li key={t.id}>
              <a href={tabHref(t.id, params.data.vendor)} aria-current={selection.tab === t.id ? "page" : undefined}>{t.label}</a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="lede">{LEDES[selection.tab]}</p>
      <KindFilter
        action="/"
        selected={params.data.kind ?? []}
        vendors={vendors.map((v) => ({ slug: v.slug, name: v.name }))}
        vendor={params.data.vendor}
        show={params.data.kind ? undefined : params.data.show}
      />
      <FeedLinks feedPath={changesFeedPath({ vendorSlug: params.data.vendor, kinds: selection.kinds })} label={selection.kinds || params.data.vendor ? "these changes" : "every change"} />
      <CalendarLink
        href={params.data.vendor ? paths.vendorMaintenanceCalendar(params.data.vendor) : paths.allMaintenanceCalendar()}
        label={params.data.vendor ? "This vendor's scheduled maintenance" : "Every vendor's scheduled maintenance"}
      />
      <ChangeList rows={page.rows} now={now} />
      <Pager basePath="/" params={raw} next={page.next} isFirst={!before} />
    </>
  );
}
