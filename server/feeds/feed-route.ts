import type { RedlineDb } from "@/db/client";
import { type ChangeDetailRow, type ChangeFilter, listChangeDetails } from "@/db/queries/changes";
import { resolveIncidentRoute } from "@/db/queries/incident-route";
import { listQuietDegradations, type QuietDegradationFilter } from "@/db/queries/quiet-degradations";
import { getVendor } from "@/db/queries/vendor-profile";
import { resolveWatchlistScope } from "@/db/queries/watchlist-scope";
import { getServerDb } from "@/db/driver/server-db";
import { headingKindLabel } from "@/lib/change-kinds";
import type { QuietDegradationView } from "@/lib/components/quiet-degradation";
import { type EntryKindName, entryKindLabel, entryKindNameSchema, isChangeKind, splitEntryKinds } from "@/lib/entry-kinds";
import { paths } from "@/lib/incident-key";
import { describeParamError, feedParamsSchema, searchParamsToObject } from "@/lib/page-params";
import { renderChangeHtml } from "@/lib/render/change-html";
import { changeItemId, FEED_CONTENT_TYPES, FEED_FORMATS, type FeedDocument, type FeedFormat, type FeedItem, renderFeed, stableUrn } from "@/lib/render/feed";
import { quietDegradationItem } from "@/lib/render/quiet-degradation-item";
import { deletedIncidentHistory } from "@/db/queries/deleted-incidents";
import { readEnv } from "@/lib/env";
import { type DeletedHistory, feedTombstones } from "@/lib/feed-tombstones";
import { entityTag, respondConditionally } from "@/server/http/conditional";
import { problem } from "@/server/http/problem";
import { publicOrigin } from "@/server/http/public-origin";

/** The levels a feed can follow; each has its address (lib/incident-key.ts `paths`). */
export type FeedLevel = "all" | "kind" | "vendor" | "vendor-kind" | "incident" | "watchlist";

/** Enough for a reader that polls hourly to miss nothing on a busy day; older items are on the pages. */
export const FEED_SIZE = 50;
/** Raise when the items' rendering changes, so readers' cached copies are replaced. */
const RENDER_VERSION = "8";
const CACHE_CONTROL = "public, max-age=60";

interface Scope {
  /** The changes it carries; null: none (a feed of quiet degradations only). */
  filter: ChangeFilter | null;
  /** The quiet degradations it carries; null: none (an incident's feed, a change kind's). */
  quiet: QuietDegradationFilter | null;
  /** What the feed follows, for its title: "all changes", "Acme Cloud", "Acme Cloud: API errors" … */
  name: string;
  page: string;
  feedPath: (format: FeedFormat) => string;
}

type Params = { slug?: string; key?: string; kind?: string; name?: string };
/** The whole archive's feed follows this; narrowed, it is named by what narrows it. */
const ALL_CHANGES = "all changes";
type Resolved = { scope: Scope } | { error: Response };

function kindOf(raw: string | undefined): EntryKindName | null {
  const parsed = entryKindNameSchema.safeParse(raw === undefined ? undefined : decodeURIComponent(raw));
  return parsed.success ? parsed.data : null;
}

/** A kind's feed carries the versions of a change kind, or the quiet degradations. */
function ofKind(kind: EntryKindName, vendorId?: number): Pick<Scope, "filter" | "quiet"> {
  const vendor = vendorId === undefined ? {} : { vendorId };
  if (isChangeKind(kind)) return { filter: { ...vendor, kinds: [kind] }, quiet: null };
  return { filter: null, quiet: vendorId === undefined ? {} : { vendorIds: [vendorId] } };
}

async function resolveScope(db: RedlineDb, level: FeedLevel, params: Params): Promise<Resolved> {
  const kind = level === "kind" || level === "vendor-kind" ? kindOf(params.kind) : null;
  if ((level === "kind" || level === "vendor-kind") && kind === null) {
    return { error: problem(404, `no change kind ${JSON.stringify(params.kind ?? "")} (see /api/v1/openapi.json for the list)`) };
  }
  if (level === "all") return { scope: { filter: {}, quiet: {}, name: ALL_CHANGES, page: "/", feedPath: paths.allFeed } };
  if (level === "kind" && kind) {
    const page = isChangeKind(kind) ? `/?kind=${kind}` : paths.quietDegradations();
    return { scope: { ...ofKind(kind), name: entryKindLabel(kind), page, feedPath: (f) => paths.kindFeed(kind, f) } };
  }
  if (level === "watchlist") return watchlistScope(db, decodeURIComponent(params.name ?? ""));
  const slug = decodeURIComponent(params.slug ?? "");
  const vendor = await getVendor(db, slug);
  if (!vendor) return { error: problem(404, `no vendor ${JSON.stringify(slug)}`) };
  if (level === "vendor") {
    return {
      scope: { filter: { vendorId: vendor.id }, quiet: { vendorIds: [vendor.id] }, name: vendor.name, page: paths.vendorChanges(slug), feedPath: (f) => paths.vendorFeed(slug, f) },
    };
  }
  if (level === "vendor-kind" && kind) {
    return {
      scope: {
        ...ofKind(kind, vendor.id),
        name: `${vendor.name}: ${entryKindLabel(kind)}`,
        page: isChangeKind(kind) ? `${paths.vendorChanges(slug)}?kind=${kind}` : paths.quietDegradations(slug),
        feedPath: (f) => paths.vendorKindFeed(slug, kind, f),
      },
    };
  }
  const route = await resolveIncidentRoute(db, slug, decodeURIComponent(params.key ?? ""));
  if (!route) return { error: problem(404, `no incident ${JSON.stringify(params.key ?? "")} of ${vendor.name}`) };
  const providerId = route.incident.providerId;
  return {
    scope: {
      filter: { vendorId: vendor.id, incidentId: route.incident.id },
      quiet: null,
      name: `${vendor.name}: ${route.incident.current.incident.title || "(untitled)"}`,
      page: paths.incident(slug, providerId),
      feedPath: (f) => paths.incidentFeed(slug, providerId, f),
    },
  };
}

async function watchlistScope(db: RedlineDb, name: string): Promise<Resolved> {
  const watched = await resolveWatchlistScope(db, name);
  if (!watched) return { error: problem(404, `no watchlist ${JSON.stringify(name)}`) };
  return {
    scope: {
      filter: { watch: watched.vendors },
      quiet: { watch: watched.vendors },
      name: `watchlist ${name}`,
      page: paths.watchlist(name),
      feedPath: (f) => paths.watchlistFeed(name, f),
    },
  };
}

/** The archived histories of the deleted incidents among `rows`, read before the feed is rendered. */
async function deletedHistories(db: RedlineDb, rows: readonly ChangeDetailRow[]): Promise<DeletedHistory> {
  const histories = new Map<string, string[] | null>();
  for (const row of rows) {
    const incident = `${row.vendorSlug}\u0000${row.providerId}`;
    if (row.kinds.includes("incident-deleted") && !histories.has(incident)) histories.set(incident, await deletedIncidentHistory(db, row.vendorSlug, row.providerId));
  }
  return (slug, providerId) => histories.get(`${slug}\u0000${providerId}`) ?? null;
}

/** Items already rendered, by version: a version never changes, so neither does its item. */
const renderedItems = new Map<string, FeedItem>();
// About 2 KB each: every vendor feed of a few hundred vendors, 50 items each.
const RENDERED_ITEMS_MAX = 20_000;

function itemFor(origin: string, row: ChangeDetailRow): FeedItem {
  const key = `${origin}\u0000${row.versionId}\u0000${row.vendorName}`;
  let item = renderedItems.get(key);
  if (!item) {
    item = toItem(origin, row);
    renderedItems.set(key, item);
    if (renderedItems.size > RENDERED_ITEMS_MAX) {
      const oldest = renderedItems.keys().next().value;
      if (oldest !== undefined) renderedItems.delete(oldest);
    }
  }
  return item;
}

function toItem(origin: string, row: ChangeDetailRow): FeedItem {
  const link = `${origin}${paths.version(row.vendorSlug, row.providerId, row.seq)}`;
  const kind = headingKindLabel(row.kinds, { impact: row.versionImpact, kind: row.versionKind });
  return {
    id: changeItemId(row.vendorSlug, row.providerId, row.observedAt),
    title: `${row.vendorName}: ${kind}: ${row.versionTitle || "(untitled)"}`,
    link,
    summary: row.summary,
    html: renderChangeHtml({ summary: row.summary, changes: row.changes, link, isFirst: row.seq === 1 }),
    published: row.observedAt,
  };
}

type FeedQuery = { kind?: EntryKindName[]; impact?: string[]; component?: string; group?: string };

/**
 * The scope narrowed by the query: more kinds pick among changes and quiet degradations, an
 * impact (an incident's) leaves quiet degradations out, a component narrows both, and a group
 * narrows quiet degradations, so it is refused where changes are carried too.
 */
function narrow(scope: Scope, q: FeedQuery): Pick<Scope, "filter" | "quiet"> | { error: string } {
  const picked = q.kind ? splitEntryKinds(q.kind) : null;
  let filter = scope.filter;
  let quiet = scope.quiet;
  if (picked) {
    filter = filter && picked.changeKinds !== null ? { ...filter, ...(picked.changeKinds ? { kinds: [...(filter.kinds ?? []), ...picked.changeKinds] } : {}) } : null;
    if (!picked.quiet) quiet = null;
  }
  if (q.impact) quiet = null;
  filter = filter ? { ...filter, ...(q.impact ? { impacts: q.impact } : {}), ...(q.component ? { component: q.component } : {}) } : null;
  quiet = quiet ? { ...quiet, ...(q.component ? { component: q.component } : {}) } : null;
  if (q.group !== undefined) {
    if (filter !== null || quiet === null) return { error: "group: a group narrows quiet degradations: use it on a quiet-degradation feed (/kinds/quiet-degradation/feed.atom, or kind=quiet-degradation alone)" };
    quiet = { ...quiet, group: q.group };
  }
  return { filter, quiet };
}

/** What the query narrows the feed to, in words ("Update edited, Impact lowered; impact critical"), or null when it does not. */
function narrowingOf(q: FeedQuery): string | null {
  const parts = [
    q.kind ? q.kind.map(entryKindLabel).join(", ") : null,
    q.impact ? `impact ${q.impact.join(" or ")}` : null,
    q.component === undefined ? null : `component ${q.component}`,
    q.group === undefined ? null : `group ${q.group}`,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join("; ") : null;
}

/** The feed's title: what it follows, then what the query narrows that to, as a kind's own feed is titled. */
function feedTitle(scope: Scope, q: FeedQuery): string {
  const narrowing = narrowingOf(q);
  if (narrowing === null) return `Redline: ${scope.name}`;
  return scope.name === ALL_CHANGES ? `Redline: ${narrowing}` : `Redline: ${scope.name}: ${narrowing}`;
}

function describeFeed(scope: Scope, carries: Pick<Scope, "filter" | "quiet">, q: FeedQuery): string {
  const of = scope.name === ALL_CHANGES ? "" : ` of ${scope.name}`;
  const narrowing = narrowingOf(q);
  const only = narrowing === null ? "" : ` Only: ${narrowing}.`;
  if (carries.filter === null) return `Every quiet degradation Redline observed${of}, newest first: components degraded or out while no incident was open.${only}`;
  const quiet = carries.quiet === null ? "" : ", and the components degraded or out while no incident was open";
  return `Every change Redline archived${of}, newest first: new incidents and the edits vendors make to them${quiet}.${only}`;
}

/** The etag's words for a quiet degradation: everything its entry shows. */
function quietTag(q: QuietDegradationView): string[] {
  return [q.vendor.slug, q.vendor.name, q.from, q.until ?? "", ...q.components.flatMap((c) => [c.id, c.name, c.group ?? ""])];
}

/** A feed of one level in one format: 400/404 as problem details, 304 when the reader is current. */
export function feedRoute(level: FeedLevel, format: FeedFormat, database: () => RedlineDb = getServerDb) {
  return async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    const url = new URL(request.url);
    const query = (level === "kind" || level === "vendor-kind" ? feedParamsSchema.omit({ kind: true }) : feedParamsSchema).safeParse(
      searchParamsToObject(url.searchParams),
    );
    if (!query.success) return problem(400, describeParamError(query.error));
    const db = database();
    const resolved = await resolveScope(db, level, await context.params);
    if ("error" in resolved) return resolved.error;
    const { scope } = resolved;
    const carries = narrow(scope, query.data);
    if ("error" in carries) return problem(400, carries.error);
    const rows = carries.filter === null ? [] : (await listChangeDetails(db, carries.filter, FEED_SIZE)).rows;
    const quiet = carries.quiet === null ? [] : (await listQuietDegradations(db, carries.quiet, FEED_SIZE)).rows;
    const origin = publicOrigin(request);
    const hub = readEnv().REDLINE_WEBSUB_HUB;
    const tombstones = format === "atom" ? feedTombstones(origin, rows, await deletedHistories(db, rows)) : [];
    const dropped = new Set(tombstones.map((t) => t.ref));
    const items = [...rows.map((row) => itemFor(origin, row)).filter((item) => !dropped.has(item.id)), ...quiet.map((q) => quietDegradationItem(origin, q))]
      .sort((a, b) => (a.published === b.published ? 0 : a.published < b.published ? 1 : -1))
      .slice(0, FEED_SIZE);
    const newest = items.reduce<string | null>((latest, item) => {
      const at = item.updated ?? item.published;
      return latest === null || at > latest ? at : latest;
    }, null);
    const etag = entityTag(
      RENDER_VERSION, format, origin, url.pathname, url.search, scope.name, hub ?? "",
      ...rows.flatMap((r) => [r.versionId, r.vendorName]), ...dropped, ...quiet.flatMap(quietTag),
    );
    return respondConditionally(request, { etag, lastModified: newest, cacheControl: CACHE_CONTROL }, () => {
      const self = Object.fromEntries(FEED_FORMATS.map((f) => [f, `${origin}${scope.feedPath(f)}${url.search}`])) as Record<FeedFormat, string>;
      const doc: FeedDocument = {
        id: stableUrn("redline-feed", scope.feedPath("atom"), url.search),
        title: feedTitle(scope, query.data),
        description: describeFeed(scope, carries, query.data),
        link: `${origin}${scope.page}`,
        self,
        updated: newest ?? new Date(0).toISOString(),
        items,
        tombstones,
        ...(hub ? { hub } : {}),
      };
      return new Response(renderFeed(doc, format), {
        headers: {
          "content-type": FEED_CONTENT_TYPES[format],
          "access-control-allow-origin": "*",
          "x-content-type-options": "nosniff",
          ...(hub ? { link: `<${new URL(hub).href}>; rel="hub", <${new URL(self[format]).href}>; rel="self"` } : {}),
        },
      });
    });
  };
}
