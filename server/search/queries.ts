/**
 * The reads that run full-text searches: what a client's words can make costly (prefix words
 * expand to every indexed word they begin). The web server runs them under a time budget
 * (server/search/runner.ts), on SQLite in threads of their own (server/search/threads.ts). Each
 * takes the archive first and only values a thread can be sent, and answers plain data.
 */
import type { RedlineDb } from "@/db/client";
import { listChanges } from "@/db/queries/changes";
import { listIncidents } from "@/db/queries/incident-list";
import { searchIncidents } from "@/db/queries/search";

export const SEARCH_QUERIES = {
  searchIncidents,
  listIncidents,
  // Read-only: text an older summarizer wrote is refreshed in memory, never written back here.
  listChanges,
};

export type SearchQueryName = keyof typeof SEARCH_QUERIES;

type Rest<F> = F extends (db: RedlineDb, ...rest: infer R) => unknown ? R : never;
export type SearchQueryArgs<N extends SearchQueryName> = Rest<(typeof SEARCH_QUERIES)[N]>;
export type SearchQueryResult<N extends SearchQueryName> = Awaited<ReturnType<(typeof SEARCH_QUERIES)[N]>>;

/** Runs one of them on `db`, here. */
export function runSearchQuery<N extends SearchQueryName>(db: RedlineDb, name: N, args: SearchQueryArgs<N>): Promise<SearchQueryResult<N>> {
  const query = SEARCH_QUERIES[name] as unknown as (db: RedlineDb, ...args: SearchQueryArgs<N>) => Promise<SearchQueryResult<N>>;
  return query(db, ...args);
}
