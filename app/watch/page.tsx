import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { listWatchlistSummaries } from "@/db/queries/watchlist-page";
import { getServerDb } from "@/db/driver/server-db";
import { readEnv } from "@/lib/env";
import { paths } from "@/lib/incident-key";
import { noParamsSchema } from "@/lib/page-params";
import { redlineCommand } from "@/lib/redline-command";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Watchlists" };

export default async function WatchlistsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  if (!noParamsSchema.safeParse(await searchParams).success) notFound();
  const lists = await listWatchlistSummaries(getServerDb());
  return (
    <>
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <a href="/vendors">Vendors</a> / Watchlists
      </nav>
      <h1>Watchlists</h1>
      <p className="lede">Named sets of vendors a team depends on, each with its page, feeds and maintenance calendar.</p>
      {lists.length === 0 ? (
        <p>No watchlist yet. Add one with <code>{redlineCommand("watchlists add <name> --vendor <slug>", readEnv(), process.cwd())}</code>.</p>
      ) : (
        <ul>
          {lists.map((w) => (
            <li key={w.name}>
              <a href={paths.watchlist(w.name)}>{w.name}</a>
              <span className="muted">
                {": "}
                {w.vendors.map((v) => (v.components === null ? v.name : `${v.name} (${v.components.join(", ")})`)).join(", ")}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
