import type { RedlineDb } from "@/db/client";
import { createPostgresSearches } from "@/server/search/postgres";
import type { SearchRunner } from "@/server/search/runner";
import { createSearchThreads } from "@/server/search/threads";

/** Searches that may wait for each search thread before another is refused at once (each waits at most its budget). */
const WAITING_PER_THREAD = 8;

export interface WebSearches {
  runner: SearchRunner;
  ready: Promise<void>;
  /** How they run, for the web server's first lines. */
  description: string;
  close(): Promise<void>;
}

/**
 * A web server's searches of the archive at `location` (`db` is its own connection to it): on
 * PostgreSQL on connections of their own, on SQLite on `threads` threads, 0 meaning on the web
 * server's own thread without a budget (null: nothing to install).
 */
export function startWebSearches(options: { location: string; db: RedlineDb; threads: number; budgetMs: number; log: (line: string) => void }): WebSearches | null {
  const budget = `stopped after ${options.budgetMs / 1000} s (REDLINE_SEARCH_TIMEOUT_MS)`;
  if (options.db.connection.dialect.process.searchesOnServer) {
    const searches = createPostgresSearches({ url: options.location, budgetMs: options.budgetMs });
    return { runner: searches, ready: Promise.resolve(), description: `searches run on connections of their own, ${budget}`, close: () => searches.close() };
  }
  if (options.threads === 0) return null;
  const threads = createSearchThreads({
    location: options.location, size: options.threads, budgetMs: options.budgetMs, maxWaiting: WAITING_PER_THREAD * options.threads, here: options.db, log: options.log,
  });
  const plural = options.threads === 1 ? "" : "s";
  return { runner: threads, ready: threads.ready, description: `searches run on ${options.threads} thread${plural} of their own (REDLINE_SEARCH_WORKERS), ${budget}`, close: () => threads.close() };
}
