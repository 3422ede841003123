/** Watchlists: named sets of vendors, each whole or narrowed to components. */
import type { RedlineDb } from "@/db/client";
import { transact } from "@/db/transaction";

export class WatchlistError extends Error {
  readonly kind = "watchlist";
}

/** Names appear in URLs (/watch/<name>): lowercase letters, digits and single dashes. */
export const WATCHLIST_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export interface WatchlistMember {
  vendor: string;
  vendorName: string;
  /** Null: every incident of the vendor. */
  component: string | null;
}

export interface Watchlist {
  id: number;
  name: string;
  createdAt: string;
  members: WatchlistMember[];
}

export interface WatchlistInput {
  name: string;
  vendors: readonly string[];
  /** `vendor:component`; the vendor joins the list narrowed to these components. */
  components: readonly string[];
}

function membersOf(db: RedlineDb, input: WatchlistInput): Array<{ vendorId: number; component: string | null }> {
  const vendorId = (slug: string) => {
    const row = db.$client.prepare<[string], { id: number }>("SELECT id FROM vendors WHERE slug = ?").get(slug);
    if (!row) throw new WatchlistError(`watchlists: no vendor ${JSON.stringify(slug)} (see \`redline vendors list\`)`);
    return row.id;
  };
  const members = input.vendors.map((slug) => ({ vendorId: vendorId(slug), component: null as string | null }));
  for (const spec of input.components) {
    const at = spec.indexOf(":");
    if (at <= 0 || at === spec.length - 1) throw new WatchlistError(`watchlists: --component takes <vendor>:<component name>, not ${JSON.stringify(spec)}`);
    members.push({ vendorId: vendorId(spec.slice(0, at)), component: spec.slice(at + 1).trim() });
  }
  if (members.length === 0) throw new WatchlistError("watchlists: name at least one --vendor or --component");
  return members;
}

/** Create a watchlist, or replace the members of an existing one of that name. */
export async function saveWatchlist(db: RedlineDb, input: WatchlistInput, now = new Date().toISOString()): Promise<Watchlist> {
  if (!WATCHLIST_NAME_PATTERN.test(input.name)) {
    throw new WatchlistError(`watchlists: invalid name ${JSON.stringify(input.name)} (use lowercase letters, digits and dashes)`);
  }
  const sqlite = db.$client;
  await transact(db, async () => {
    const members = membersOf(db, input);
    sqlite.prepare("INSERT INTO watchlists (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING").run(input.name, now);
    const id = sqlite.prepare<[string], { id: number }>("SELECT id FROM watchlists WHERE name = ?").get(input.name)?.id;
    if (id === undefined) throw new Error(`store: unable to save watchlist ${input.name}`);
    sqlite.prepare("DELETE FROM watchlist_members WHERE watchlist_id = ?").run(id);
    const insert = sqlite.prepare("INSERT INTO watchlist_members (watchlist_id, vendor_id, component) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    for (const m of members) insert.run(id, m.vendorId, m.component);
  }, { immediate: true });
  const saved = getWatchlist(db, input.name);
  if (!saved) throw new Error(`store: watchlist ${input.name} vanished after being saved`);
  return saved;
}

export function listWatchlists(db: RedlineDb): Watchlist[] {
  const lists = db.$client.prepare<[], { id: number; name: string; createdAt: string }>("SELECT id, name, created_at AS createdAt FROM watchlists ORDER BY name").all();
  const members = db.$client
    .prepare<[], WatchlistMember & { watchlistId: number }>(
      `SELECT m.watchlist_id AS watchlistId, v.slug AS vendor, v.name AS vendorName, m.component FROM watchlist_members m
       JOIN vendors v ON v.id = m.vendor_id ORDER BY v.slug, m.component`,
    )
    .all();
  return lists.map((l) => ({ ...l, members: members.filter((m) => m.watchlistId === l.id).map(({ vendor, vendorName, component }) => ({ vendor, vendorName, component })) }));
}

export function getWatchlist(db: RedlineDb, name: string): Watchlist | undefined {
  return listWatchlists(db).find((w) => w.name === name);
}

/** Remove a watchlist; refused while a subscription filters on it. */
export async function removeWatchlist(db: RedlineDb, name: string): Promise<boolean> {
  const sqlite = db.$client;
  const row = sqlite.prepare<[string], { id: number }>("SELECT id FROM watchlists WHERE name = ?").get(name);
  if (!row) return false;
  const using = sqlite.prepare<[number], { id: string }>("SELECT id FROM subscriptions WHERE watchlist_id = ? ORDER BY id").all(row.id).map((s) => s.id);
  if (using.length > 0) throw new WatchlistError(`watchlists: ${name} is the filter of subscription ${using.join(", ")}: remove ${using.length === 1 ? "it" : "them"} first`);
  sqlite.prepare("DELETE FROM watchlists WHERE id = ?").run(row.id);
  return true;
}
