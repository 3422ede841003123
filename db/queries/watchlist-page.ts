/** What /watch and /watch/<name> show: the watchlists, and one's vendors as they are now with their latest changes. */
import type { RedlineDb } from "@/db/client";
import { type ChangePage, listChanges } from "@/db/queries/changes";
import type { Cursor } from "@/db/queries/prepared";
import { getVendorOverview, type NowRules, type VendorOverview } from "@/db/queries/vendors-overview";
import { resolveWatchlistScope, scopeOfWatchlist, type WatchedVendor } from "@/db/queries/watchlist-scope";
import { listWatchlists, type Watchlist } from "@/db/watchlists";

export interface WatchlistPage {
  watchlist: Watchlist;
  vendors: Array<{ vendor: WatchedVendor; overview: VendorOverview | undefined }>;
  changes: ChangePage;
}

/** The page's data, or undefined for an unknown watchlist. */
export function getWatchlistPage(db: RedlineDb, name: string, now: Date, rules: NowRules, before: Cursor | null, limit: number): WatchlistPage | undefined {
  const scope = resolveWatchlistScope(db, name);
  if (!scope) return undefined;
  return {
    watchlist: scope.watchlist,
    vendors: scope.vendors.map((vendor) => ({ vendor, overview: getVendorOverview(db, now, rules, vendor.slug) })),
    changes: listChanges(db, { watch: scope.vendors, before }, limit),
  };
}

/** Every watchlist with its vendors, by name. */
export function listWatchlistSummaries(db: RedlineDb): Array<{ name: string; vendors: WatchedVendor[] }> {
  return listWatchlists(db).map((w) => ({ name: w.name, vendors: scopeOfWatchlist(db, w).vendors }));
}
