/** What /watch and /watch/<name> show: the watchlists, and one's vendors as they are now with their latest changes. */
import type { RedlineDb } from "@/db/driver/database";
import { type ChangePage, listChanges } from "@/db/queries/changes";
import type { Cursor } from "@/db/driver/prepared";
import { getVendorOverview, type NowRules, type VendorOverview } from "@/db/queries/vendors-overview";
import { resolveWatchlistScope, scopeOfWatchlist, type WatchedVendor } from "@/db/queries/watchlist-scope";
import { listWatchlists, type Watchlist } from "@/db/notifications/watchlists";

export interface WatchlistPage {
  watchlist: Watchlist;
  vendors: Array<{ vendor: WatchedVendor; overview: VendorOverview | undefined }>;
  changes: ChangePage;
}

/** The page's data, or undefined for an unknown watchlist. */
export async function getWatchlistPage(db: RedlineDb, name: string, now: Date, rules: NowRules, before: Cursor | null, limit: number): Promise<WatchlistPage | undefined> {
  const scope = await resolveWatchlistScope(db, name);
  if (!scope) return undefined;
  const vendors: WatchlistPage["vendors"] = [];
  for (const vendor of scope.vendors) vendors.push({ vendor, overview: await getVendorOverview(db, now, rules, vendor.slug) });
  return { watchlist: scope.watchlist, vendors, changes: await listChanges(db, { watch: scope.vendors, before }, limit) };
}

/** Every watchlist with its vendors, by name. */
export async function listWatchlistSummaries(db: RedlineDb): Promise<Array<{ name: string; vendors: WatchedVendor[] }>> {
  const summaries: Array<{ name: string; vendors: WatchedVendor[] }> = [];
  for (const w of await listWatchlists(db)) summaries.push({ name: w.name, vendors: (await scopeOfWatchlist(db, w)).vendors });
  return summaries;
}
