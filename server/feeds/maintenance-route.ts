import type { RedlineDb } from "@/db/client";
import { listMaintenanceCandidates, type MaintenanceCandidate, listVersionChanges, listWatchedMaintenanceCandidates } from "@/db/queries/maintenance-calendar";
import { resolveWatchlistScope } from "@/db/queries/watchlist-scope";
import { getVendor } from "@/db/queries/vendor-profile";
import { getServerDb } from "@/db/driver/server-db";
import { paths } from "@/lib/incident-key";
import { countReschedules, PAST_WINDOW_DAYS, selectMaintenanceWindows, toMaintenanceEvent } from "@/lib/maintenance-calendar";
import { type CalendarEvent, ICAL_CONTENT_TYPE, renderCalendar } from "@/lib/render/ical";
import { entityTag, respondConditionally } from "@/server/http/conditional";
import { problem } from "@/server/http/problem";
import { publicOrigin } from "@/server/http/public-origin";

/** Raise when the events' rendering changes, so clients' cached copies are replaced. */
const RENDER_VERSION = "2";
const CACHE_CONTROL = "public, max-age=300";

type Params = { slug?: string; name?: string };

/** The maintenance calendar of every vendor ("all"), of one, or of a watchlist's; 404 for an unknown one, 304 when the client is current. */
export function maintenanceCalendarRoute(level: "all" | "vendor" | "watchlist", database: () => RedlineDb = getServerDb, clock: () => Date = () => new Date()) {
  return async (request: Request, context: { params: Promise<Params> }): Promise<Response> => {
    const db = database();
    let vendorId: number | null = null;
    let name = "every vendor";
    let title = "Redline: every vendor's maintenance";
    let candidates: (() => Promise<MaintenanceCandidate[]>) | null = null;
    if (level === "watchlist") {
      const listName = decodeURIComponent((await context.params).name ?? "");
      const watched = await resolveWatchlistScope(db, listName);
      if (!watched) return problem(404, `no watchlist ${JSON.stringify(listName)}`);
      name = `the vendors of watchlist ${listName}`;
      title = `Redline: watchlist ${listName} maintenance`;
      candidates = () => listWatchedMaintenanceCandidates(db, watched.vendors);
    } else if (level === "vendor") {
      const slug = decodeURIComponent((await context.params).slug ?? "");
      const vendor = await getVendor(db, slug);
      if (!vendor) return problem(404, `no vendor ${JSON.stringify(slug)}`);
      vendorId = vendor.id;
      name = vendor.name;
      title = `Redline: ${vendor.name} maintenance`;
    }
    const windows = selectMaintenanceWindows(await (candidates ? candidates() : listMaintenanceCandidates(db, vendorId)), clock());
    const origin = publicOrigin(request);
    const url = new URL(request.url);
    const newest = windows.reduce<string | null>((max, w) => (max === null || w.lastChangedAt > max ? w.lastChangedAt : max), null);
    const etag = entityTag(RENDER_VERSION, origin, url.pathname, name, ...windows.flatMap((w) => [w.incidentId, w.versionCount, w.vendorName]));
    return respondConditionally(request, { etag, lastModified: newest, cacheControl: CACHE_CONTROL }, async () => {
      const events: CalendarEvent[] = [];
      for (const w of windows) {
        events.push(toMaintenanceEvent(w, countReschedules(await listVersionChanges(db, w.incidentId)), `${origin}${paths.incident(w.vendorSlug, w.providerId)}`));
      }
      const body = renderCalendar({
        name: title,
        description: `Scheduled maintenance of ${name} as Redline archived it: windows ended in the last ${PAST_WINDOW_DAYS} days and every one to come.`,
        events,
      });
      return new Response(body, { headers: { "content-type": ICAL_CONTENT_TYPE, "access-control-allow-origin": "*", "x-content-type-options": "nosniff" } });
    });
  };
}
