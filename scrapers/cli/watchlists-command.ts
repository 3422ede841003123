import { listWatchlists, removeWatchlist, saveWatchlist, type Watchlist, WatchlistError } from "@/db/notifications/watchlists";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";

function describeMembers(w: Watchlist): string {
  return w.members.map((m) => (m.component === null ? m.vendor : `${m.vendor}:${m.component}`)).join(", ");
}

export async function runWatchlistsAdd(name: string, opts: { vendor?: string[]; component?: string[]; json?: boolean; db?: string }): Promise<void> {
  await withDatabase("watchlists add", opts, async (db) => {
    let saved: Watchlist;
    try {
      saved = await saveWatchlist(db, { name, vendors: opts.vendor ?? [], components: opts.component ?? [] });
    } catch (error) {
      if (error instanceof WatchlistError) throw new CliError(error.message);
      throw error;
    }
    if (opts.json) process.stdout.write(`${JSON.stringify(saved)}\n`);
    else process.stdout.write(`watchlist ${saved.name}: ${describeMembers(saved)} (page: /watch/${saved.name})\n`);
  });
}

export async function runWatchlistsList(opts: { json?: boolean; db?: string }): Promise<void> {
  await withDatabase("watchlists list", opts, async (db) => {
    const lists = await listWatchlists(db);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(lists)}\n`);
      return;
    }
    if (lists.length === 0) process.stdout.write("no watchlists (add one with `redline watchlists add <name> --vendor <slug>`)\n");
    for (const w of lists) process.stdout.write(`${w.name}: ${describeMembers(w)}\n`);
  });
}

export async function runWatchlistsRemove(name: string, opts: { db?: string }): Promise<void> {
  await withDatabase("watchlists remove", opts, async (db) => {
    try {
      if (!(await removeWatchlist(db, name))) throw new CliError(`no watchlist ${JSON.stringify(name)} (see \`redline watchlists list\`)`);
    } catch (error) {
      if (error instanceof WatchlistError) throw new CliError(error.message);
      throw error;
    }
    process.stdout.write(`removed watchlist ${name}\n`);
  });
}
