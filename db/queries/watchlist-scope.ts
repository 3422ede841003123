/** A watchlist as the change lists, feeds and calendar filter on it. */
import type { RedlineDb } from "@/db/driver/database";
import type { WatchScope } from "@/db/queries/changes";
import { getVendor } from "@/db/queries/vendor-profile";
import { getWatchlist, type Watchlist } from "@/db/notifications/watchlists";

export interface WatchedVendor extends WatchScope {
  slug: string;
  name: string;
}

export interface WatchlistScope {
  watchlist: Watchlist;
  /** One per vendor, by slug: whole when any member names it whole, else narrowed to the union of its members' components. */
  vendors: WatchedVendor[];
}

/** The watchlist of that name with its vendors resolved, or undefined. */
export async function resolveWatchlistScope(db: RedlineDb, name: string): Promise<WatchlistScope | undefined> {
  const watchlist = await getWatchlist(db, name);
  return watchlist ? scopeOfWatchlist(db, watchlist) : undefined;
}

/** A watchlist's members merged per vendor. */
export async function scopeOfWatchlist(db: RedlineDb, watchlist: Watchlist): Promise<WatchlistScope> {
  const bySlug = new Map<string, WatchedVendor>();
  for (const member of watchlist.members) {
    const vendor = bySlug.get(member.vendor) ?? (await fromVendor(db, member.vendor));
    if (!vendor) continue;
    const components = member.component === null || vendor.components === null ? null : [...new Set([...vendor.components, member.component])];
    bySlug.set(member.vendor, { ...vendor, components });
  }
  const vendors = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1));
  return { watchlist, vendors };
}

async function fromVendor(db: RedlineDb, slug: string): Promise<WatchedVendor | undefined> {
  const row = await getVendor(db, slug);
  // Starts narrowed to nothing: each member adds its component, or widens it to the whole vendor.
  return row ? { vendorId: row.id, slug: row.slug, name: row.name, components: [] } : undefined;
}
