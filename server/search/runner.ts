/**
 * Where a web process's searches run, and how long they may take. A full-text search with prefix
 * words can cost a second where a page costs a millisecond; on SQLite the driver runs each
 * statement on the calling thread, so one such search held every other request behind it. The
 * web server installs a runner that keeps searches off its own thread and stops one that runs
 * past its budget (server/search/threads.ts on SQLite, server/search/postgres.ts on PostgreSQL:
 * docs/decisions/0056-searches-under-a-time-budget.md); a stopped search is answered 503.
 *
 * The runner is kept on globalThis: Next's bundles (the search page, the API) and the web server's
 * own code each load this module, and must find the same one.
 */
import type { RedlineDb } from "@/db/client";
import { runSearchQuery, type SearchQueryArgs, type SearchQueryName, type SearchQueryResult } from "@/server/search/queries";

export interface SearchRunner {
  run<N extends SearchQueryName>(name: N, args: SearchQueryArgs<N>): Promise<SearchQueryResult<N>>;
  /** Whether a search asked now would be refused at once (every place to wait is taken). */
  saturated(): boolean;
}

/** Why a search got no answer: it ran past its budget, or too many were waiting to start. */
export type StopReason = "over-budget" | "busy";

/** A search stopped or refused by its runner: the client is told so (503), nothing failed. */
export class SearchStopped extends Error {
  readonly kind = "search-stopped";
  constructor(readonly reason: StopReason, readonly budgetMs: number) {
    super(
      reason === "over-budget"
        ? `the search ran past its ${formatSeconds(budgetMs)} budget and was stopped; fewer words ending in *, a vendor or a period make it cheaper`
        : "too many searches are running or waiting to run; retry in a few seconds",
    );
  }

  /** Seconds a client should wait before asking again. */
  get retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(this.budgetMs / 1000));
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Whether `error` is a SearchStopped, from this bundle or another (instanceof cannot tell across them). */
export function isSearchStopped(error: unknown): error is SearchStopped {
  return typeof error === "object" && error !== null && (error as { kind?: unknown }).kind === "search-stopped";
}

const holder = globalThis as unknown as { redlineSearchRunner?: { db: RedlineDb; runner: SearchRunner } };

/** Makes `runner` the one this process's searches of `db` use; returns what takes it away again. */
export function installSearchRunner(db: RedlineDb, runner: SearchRunner): () => void {
  const installed = { db, runner };
  holder.redlineSearchRunner = installed;
  return () => {
    if (holder.redlineSearchRunner === installed) delete holder.redlineSearchRunner;
  };
}

/**
 * The runner for searches of `db`: the web server's, when it installed one for this archive; else
 * one that runs them here, without a budget (a development server, a script, a test of the queries).
 */
export function searchRunnerFor(db: RedlineDb): SearchRunner {
  const installed = holder.redlineSearchRunner;
  return installed?.db === db ? installed.runner : { run: (name, args) => runSearchQuery(db, name, args), saturated: () => false };
}
