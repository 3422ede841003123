/** Watchlists: named sets of vendors, each whole or narrowed to components. */
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import { transact } from "@/db/driver/transaction";

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

const statements = statementsFor((c: Connection) => ({
  vendorId: c.prepare<[string], { id: number }>("SELECT id FROM vendors WHERE slug = ?"),
  create: c.prepare<[string, string]>("INSERT INTO watchlists (name, created_at) VALUES (?, ?) ON CONFLICT (name) DO NOTHING"),
  idOf: c.prepare<[string], { id: number }>("SELECT id FROM watchlists WHERE name = ?"),
  clear: c.prepare<[number]>("DELETE FROM watchlist_members WHERE watchlist_id = ?"),
  addMember: c.prepare<[number, number, string | null]>("INSERT INTO watchlist_members (watchlist_id, vendor_id, component) VALUES (?, ?, ?) ON CONFLICT DO NOTHING"),
  lists: c.prepare<[], { id: number; name: string; createdAt: string }>("SELECT id, name, created_at AS createdAt FROM watchlists ORDER BY name"),
  // The whole vendor (no component) before its components.
  members: c.prepare<[], WatchlistMember & { watchlistId: number }>(
    `SELECT m.watchlist_id AS watchlistId, v.slug AS vendor, v.name AS vendorName, m.component FROM watchlist_members m
     JOIN vendors v ON v.id = m.vendor_id ORDER BY v.slug, ${c.dialect.history.nullsFirst("m.component")}`,
  ),
  users: c.prepare<[number], { id: string }>("SELECT id FROM subscriptions WHERE watchlist_id = ? ORDER BY id"),
  remove: c.prepare<[number]>("DELETE FROM watchlists WHERE id = ?"),
}));

async function membersOf(db: RedlineDb, input: WatchlistInput): Promise<Array<{ vendorId: number; component: string | null }>> {
  const vendorId = async (slug: string) => {
    const row = await statements(db).vendorId.get(slug);
    if (!row) throw new WatchlistError(`watchlists: no vendor ${JSON.stringify(slug)} (see \`redline vendors list\`)`);
    return row.id;
  };
  const members: Array<{ vendorId: number; component: string | null }> = [];
  for (const slug of input.vendors) members.push({ vendorId: await vendorId(slug), component: null });
  for (const spec of input.components) {
    const at = spec.indexOf(":");
    if (at <= 0 || at === spec.length - 1) throw new WatchlistError(`watchlists: --component takes <vendor>:<component name>, not ${JSON.stringify(spec)}`);
    members.push({ vendorId: await vendorId(spec.slice(0, at)), component: spec.slice(at + 1).trim() });
  }
  if (members.length === 0) throw new WatchlistError("watchlists: name at least one --vendor or --component");
  return members;
}

/** Create a watchlist, or replace the members of an existing one of that name. */
export async function saveWatchlist(db: RedlineDb, input: WatchlistInput, now = new Date().toISOString()): Promise<Watchlist> {
  if (!WATCHLIST_NAME_PATTERN.test(input.name)) {
    throw new WatchlistError(`watchlists: invalid name ${JSON.stringify(input.name)} (use lowercase letters, digits and dashes)`);
  }
  const st = statements(db);
  await transact(db, async () => {
    const members = await membersOf(db, input);
    await st.create.run(input.name, now);
    const id = (await st.idOf.get(input.name))?.id;
    if (id === undefined) throw new Error(`store: unable to save watchlist ${input.name}`);
    await st.clear.run(id);
    for (const m of members) await st.addMember.run(id, m.vendorId, m.component);
  }, { immediate: true });
  const saved = await getWatchlist(db, input.name);
  if (!saved) throw new Error(`store: watchlist ${input.name} vanished after being saved`);
  return saved;
}

export async function listWatchlists(db: RedlineDb): Promise<Watchlist[]> {
  const st = statements(db);
  const lists = await st.lists.all();
  const members = await st.members.all();
  return lists.map((l) => ({ ...l, members: members.filter((m) => m.watchlistId === l.id).map(({ vendor, vendorName, component }) => ({ vendor, vendorName, component })) }));
}

export async function getWatchlist(db: RedlineDb, name: string): Promise<Watchlist | undefined> {
  return (await listWatchlists(db)).find((w) => w.name === name);
}

/** Remove a watchlist; refused while a subscription filters on it. */
export async function removeWatchlist(db: RedlineDb, name: string): Promise<boolean> {
  const st = statements(db);
  const row = await st.idOf.get(name);
  if (!row) return false;
  const using = (await st.users.all(row.id)).map((s) => s.id);
  if (using.length > 0) throw new WatchlistError(`watchlists: ${name} is the filter of subscription ${using.join(", ")}: remove ${using.length === 1 ? "it" : "them"} first`);
  await st.remove.run(row.id);
  return true;
}
