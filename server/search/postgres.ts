/**
 * PostgreSQL searches under a time budget: the server runs them, so they never hold up the web
 * server's thread, but one still holds a connection and a core of the database. They get a few
 * connections of their own whose statements PostgreSQL cancels at the budget (`statement_timeout`),
 * and a search that waits longer than the budget for one of them is refused.
 */
import { closeStore, openDatabase } from "@/db/client";
import type { PostgresConnection } from "@/db/postgres/connection";
import { runSearchQuery, type SearchQueryArgs, type SearchQueryName, type SearchQueryResult } from "@/server/search/queries";
import { SearchStopped, type SearchRunner } from "@/server/search/runner";

/** Searches running at once; more wait for a connection. */
const CONNECTIONS = 4;
/** Searches that may wait for a connection before another is refused at once (each waits at most its budget). */
const WAITING = 8;
/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = "57014";

export interface PostgresSearches extends SearchRunner {
  close(): Promise<void>;
}

export function createPostgresSearches(options: { url: string; budgetMs: number }): PostgresSearches {
  const db = openDatabase(options.url, { readonly: true, pool: { poolSize: CONNECTIONS, statementTimeoutMs: options.budgetMs, waitMs: options.budgetMs } });
  const saturated = () => (db.connection as PostgresConnection).pool.waitingCount >= WAITING;
  return {
    async run<N extends SearchQueryName>(name: N, args: SearchQueryArgs<N>): Promise<SearchQueryResult<N>> {
      if (saturated()) throw new SearchStopped("busy", options.budgetMs);
      try {
        return await runSearchQuery(db, name, args);
      } catch (error) {
        throw stoppedBy(error, options.budgetMs) ?? error;
      }
    },
    saturated,
    close: () => closeStore(db),
  };
}

/** The SearchStopped a driver error means: a statement cancelled at the budget, or no connection free within it. */
export function stoppedBy(error: unknown, budgetMs: number): SearchStopped | null {
  if (typeof error !== "object" || error === null) return null;
  if ((error as { code?: unknown }).code === QUERY_CANCELED) return new SearchStopped("over-budget", budgetMs);
  // pg-pool's words when no connection came free in connectionTimeoutMillis.
  if (error instanceof Error && /timeout exceeded when trying to connect/i.test(error.message)) return new SearchStopped("busy", budgetMs);
  return null;
}
