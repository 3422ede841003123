import type { Metadata } from "next";
import { CalendarLink } from "@/components/calendar-link";
import { ChangeList } from "@/components/change-list";
import { changesFeedPath, FeedLinks, feedAlternates } from "@/components/feed-links";
import { HomeEmptyList } from "@/components/home-empty";
import { KindFilter } from "@/components/kind-filter";
import { Pager } from "@/components/pager";
import { QuietDegradationList } from "@/components/quiet-degradation-list";
import { QuietFilter } from "@/components/quiet-filter";
import { countArchive } from "@/db/queries/archive-counts";
import { listChanges } from "@/db/queries/changes";
import { type Cursor, decodeCursor, encodeCursor } from "@/db/driver/prepared";
import { listComponentGroups, listQuietDegradations, listQuietDegradationsPerVendor } from "@/db/queries/quiet-degradations";
import type { RedlineDb } from "@/db/client";
import { QUIET_DEGRADATION_KIND } from "@/lib/components/quiet-degradation";
import { capPerVendor, STRETCHES_PER_VENDOR } from "@/lib/components/quiet-degradation-list";
import { getVendor } from "@/db/queries/vendor-profile";
import { getServerDb } from "@/db/driver/server-db";
import { listVendorNames } from "@/db/queries/vendor-names";
import { readEnv } from "@/lib/env";
import { describeEmptyHome, type EmptyHome } from "@/lib/home-empty";
import { paths } from "@/lib/incident-key";
import { changesParamsSchema } from "@/lib/page-params";
import { HOME_TABS, type HomeTab, homeSelection } from "@/lib/quiet-edits";
import { redlineCommand } from "@/lib/redline-command";
import { notFound } from "next/navigation";

export const dynamic = "force-dynamic";
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  const query = changesParamsSchema.safeParse(await searchParams);
  if (query.success && homeSelection(query.data).tab === "degradations") {
    return { title: { absolute: "Quiet degradations · Redline" }, alternates: feedAlternates(quietFeedPath(query.data.vendor, query.data.group), "Redline quiet degradations") };
  }
  const filter = query.success ? { vendorSlug: query.data.vendor, kinds: homeSelection(query.data).kinds } : {};
  return { title: { absolute: "Latest changes · Redline" }, alternates: feedAlternates(changesFeedPath(filter), "Redline changes") };
}

const PAGE_SIZE = 50;
/** Lines of stretches a page of every vendor's quiet degradations shows, each vendor's cut to a few, and the most it reads for them. */
const QUIET_LINES = 30;
const QUIET_SCANNED = 2_000;
/** The group picker lists at most this many names. */
const GROUP_OPTIONS = 300;

function quietFeedPath(vendor: string | undefined, group: string | undefined) {
  const kindFeed = changesFeedPath({ vendorSlug: vendor, kinds: [QUIET_DEGRADATION_KIND] });
  return (format: "atom" | "rss" | "json") => `${kindFeed(format)}${group ? `?group=${encodeURIComponent(group)}` : ""}`;
}

/** Quiet degradations: a vendor's own list whole, every vendor's with each cut to its newest few. */
async function renderQuietList({ db, vendor, group, before, now }: { db: RedlineDb; vendor?: { id: number; slug: string }; group?: string; before: Cursor | null; now: Date }) {
  const page = vendor
    ? await listQuietDegradations(db, { vendorIds: [vendor.id], group, before }, PAGE_SIZE)
    : await listQuietDegradationsPerVendor(db, { group, before }, { lines: QUIET_LINES, perVendor: STRETCHES_PER_VENDOR, maxScanned: QUIET_SCANNED });
  const entries = vendor ? page.rows.map((item) => ({ kind: "stretch" as const, item })) : capPerVendor(page.rows);
  return { list: <QuietDegradationList entries={entries} now={now} group={group} />, empty: entries.length === 0, next: page.next ? encodeCursor(page.next) : null };
}

const LEDES: Record<HomeTab | "custom", string> = {
  quiet: "What vendors changed after the fact, newest first: rewritten, removed or backdated updates, lowered impacts, moved times, postmortems and deleted incidents.",
  degradations: "What vendors never wrote up, newest first: stretches in which a status page showed components degraded or out while no incident was open. One line per vendor and stretch; a vendor with many shows its newest few.",
  new: "Incidents as Redline first archived them, newest first.",
  all: "Every version Redline archived, newest first: new incidents, updates, resolutions and the edits vendors make after the fact.",
  custom: "The kinds of change picked below, newest first.",
};

function tabHref(tab: HomeTab, vendor: string | undefined): string {
  if (tab === "degradations") return vendor ? `/?show=degradations&vendor=${vendor}` : "/?show=degradations";
  const search = new URLSearchParams();
  if (tab !== "quiet") search.set("show", tab);
  if (vendor) search.set("vendor", vendor);
  const query = search.toString();
  return query ? `/?${query}` : "/";
}

/** What an empty list says: the archive's counts are read only when no filter or page could be the reason. */
async function emptyHomeOf(db: RedlineDb, tab: HomeTab | "custom", params: { vendor?: string; group?: string; before?: string }): Promise<EmptyHome> {
  const query = { tab, filtered: tab === "custom" || params.vendor !== undefined || params.group !== undefined, paged: params.before !== undefined };
  const counts = query.filtered || query.paged ? null : await countArchive(db);
  return describeEmptyHome(query, counts, tab === "custom" ? "/" : tabHref(tab, undefined), (args) => redlineCommand(args, readEnv(), process.cwd()));
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
  const vendors = await listVendorNames(db);
  const now = new Date();
  const tabs = (
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
    </>
  );
  if (selection.tab === "degradations") {
    const group = params.data.group;
    const quiet = await renderQuietList({ db, vendor, group, before, now });
    const groups = [...new Set((await listComponentGroups(db, vendor?.id)).map((g) => g.name))].slice(0, GROUP_OPTIONS);
    return (
      <>
        {tabs}
        <QuietFilter vendors={vendors.map((v) => ({ slug: v.slug, name: v.name }))} vendor={params.data.vendor} groups={groups} group={group} />
        <FeedLinks feedPath={quietFeedPath(params.data.vendor, group)} label={params.data.vendor || group ? "these quiet degradations" : "every quiet degradation"} />
        {quiet.empty ? <HomeEmptyList empty={await emptyHomeOf(db, selection.tab, params.data)} /> : quiet.list}
        <Pager basePath="/" params={raw} next={quiet.next} isFirst={!before} />
      </>
    );
  }
  const page = await listChanges(db, { kinds: selection.kinds, vendorId: vendor?.id, before }, PAGE_SIZE);
  return (
    <>
      {tabs}
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
      {page.rows.length === 0 ? <HomeEmptyList empty={await emptyHomeOf(db, selection.tab, params.data)} /> : <ChangeList rows={page.rows} now={now} />}
      <Pager basePath="/" params={raw} next={page.next} isFirst={!before} />
    </>
  );
}
