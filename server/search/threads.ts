/**
 * SQLite searches on threads of their own, under a time budget. better-sqlite3 runs a statement
 * on the calling thread until it is done and cannot interrupt it; run on the web server's thread,
 * one costly search stalled every page (issue 34: 24 at once held /vendors/github from 55 ms to
 * 5.6 s). Here each thread has its own read-only connection and runs one search at a time;
 * searches wait their turn in a bounded queue, each at most its budget: one not started by then is
 * refused (busy). A started search has its whole budget to run, so a costly one is not killed for
 * the time it waited (counted from the ask, 24 searches of 1.5 s at once got 2 answers and 121
 * stops in 15 s: docs/benchmarks.md). One still running when its budget is spent is answered
 * SearchStopped at once and its thread ended (it stops as soon as the statement in hand returns);
 * another is started once it has, so at most `size` searches ever use the cores.
 *
 * A thread that stops on its own is replaced; one that stops MAX_CRASHES times within
 * CRASH_WINDOW_MS is not, and when none is left searches run on the web server's thread, unbounded:
 * slower pages, never a lost search.
 */
import { Worker } from "node:worker_threads";
import type { RedlineDb } from "@/db/client";
import { workerThreadEntry } from "@/scripts/prebuilt-program";
import type { SearchReply, SearchRequest, SearchThreadReady } from "@/server/search/messages";
import { runSearchQuery, type SearchQueryArgs, type SearchQueryName, type SearchQueryResult } from "@/server/search/queries";
import { SearchStopped, type SearchRunner } from "@/server/search/runner";

const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 60_000;

export interface SearchThreadOptions {
  /** The SQLite file each thread opens read-only. */
  location: string;
  size: number;
  /** How long a search may run once started; it may wait as long for a thread before it is refused. */
  budgetMs: number;
  /** Searches that may wait for a thread; one more is refused at once. */
  maxWaiting: number;
  /** The web server's own connection, for searches when no thread is left. */
  here: RedlineDb;
  log: (line: string) => void;
}

export interface SearchThreads extends SearchRunner {
  readonly size: number;
  /** Resolved once every thread started has opened the archive (or failed to). */
  readonly ready: Promise<void>;
  /** Searches ended at their budget while running since the start (their threads replaced). */
  readonly stoppedCount: number;
  close(): Promise<void>;
}

interface Job {
  request: SearchRequest;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | null;
  slot: Slot | null;
}

interface Slot {
  worker: Worker | null;
  /** Opened the archive and takes searches. */
  ready: boolean;
  job: Job | null;
  /** Ended by the pool (a search over budget): its exit is expected. */
  ending: boolean;
  crashes: number[];
  givenUp: boolean;
}

export function createSearchThreads(options: SearchThreadOptions): SearchThreads {
  const entry = workerThreadEntry("search-worker");
  const slots: Slot[] = Array.from({ length: options.size }, () => ({ worker: null, ready: false, job: null, ending: false, crashes: [], givenUp: false }));
  const queue: Job[] = [];
  let nextId = 1;
  let closing = false;
  let stoppedCount = 0;

  const settle = (job: Job) => {
    if (job.timer) clearTimeout(job.timer);
    job.timer = null;
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (!slot.worker || !slot.ready || slot.job) continue;
      const job = queue.shift();
      if (!job) return;
      slot.job = job;
      job.slot = slot;
      // Its wait is over: from now it has its whole budget to run.
      settle(job);
      job.timer = setTimeout(() => overBudget(job), options.budgetMs);
      job.timer.unref();
      slot.worker.postMessage(job.request);
    }
  };

  /** With every thread given up, the searches waiting run here. */
  const runWaitingHere = () => {
    if (slots.some((slot) => !slot.givenUp)) return;
    for (const job of queue.splice(0)) {
      settle(job);
      runSearchQuery(options.here, job.request.name, job.request.args as never).then(job.resolve, job.reject);
    }
  };

  const start = (slot: Slot): Promise<void> => {
    const worker = new Worker(entry.filename, { eval: entry.eval, workerData: { location: options.location } });
    slot.worker = worker;
    slot.ready = false;
    slot.ending = false;
    return new Promise<void>((resolve) => {
      worker.on("message", (message: SearchReply | SearchThreadReady) => {
        if ("ready" in message) {
          slot.ready = true;
          resolve();
          dispatch();
          return;
        }
        const job = slot.job;
        if (!job || job.request.id !== message.id) return;
        slot.job = null;
        settle(job);
        if ("error" in message) job.reject(new Error(message.error));
        else job.resolve(message.result);
        dispatch();
      });
      let failure = "";
      worker.on("error", (error) => {
        // One log line: a store error says where on a line of its own.
        failure = error.message.replace(/\s*\n\s*/g, "; ");
      });
      worker.on("exit", (code) => {
        resolve();
        if (slot.worker === worker) {
          slot.worker = null;
          slot.ready = false;
        }
        const job = slot.job;
        slot.job = null;
        if (job) settle(job);
        if (closing) {
          job?.reject(new SearchStopped("busy", options.budgetMs));
          return;
        }
        if (slot.ending) {
          // Ended for a search over budget, which has had its answer: its successor takes the queue.
          void start(slot);
          return;
        }
        const why = `search thread stopped (exit code ${code})${failure ? `: ${failure}` : ""}`;
        job?.reject(new Error(why));
        const now = Date.now();
        slot.crashes = [...slot.crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
        if (slot.crashes.length >= MAX_CRASHES) {
          slot.givenUp = true;
          options.log(`${why}; ${MAX_CRASHES} stops within ${CRASH_WINDOW_MS / 1000} s, so it is not started again`);
          runWaitingHere();
          return;
        }
        options.log(`${why}; starting another`);
        void start(slot);
      });
    });
  };

  /** Still waiting when its budget is spent: no thread came free in time. */
  const waitedTooLong = (job: Job) => {
    job.timer = null;
    const at = queue.indexOf(job);
    if (at === -1) return;
    queue.splice(at, 1);
    job.reject(new SearchStopped("busy", options.budgetMs));
  };

  const overBudget = (job: Job) => {
    job.timer = null;
    const slot = job.slot;
    if (slot?.job !== job) return;
    // The statement in hand cannot be interrupted: the thread ends once it returns, and no search waits on it meanwhile.
    slot.job = null;
    slot.ready = false;
    slot.ending = true;
    void slot.worker?.terminate();
    stoppedCount += 1;
    job.reject(new SearchStopped("over-budget", options.budgetMs));
  };

  const ready = Promise.all(slots.map(start)).then(() => undefined);

  return {
    size: options.size,
    ready,
    get stoppedCount() {
      return stoppedCount;
    },
    saturated: () => queue.length >= options.maxWaiting && !slots.every((slot) => slot.givenUp),
    run<N extends SearchQueryName>(name: N, args: SearchQueryArgs<N>): Promise<SearchQueryResult<N>> {
      if (closing) return Promise.reject(new SearchStopped("busy", options.budgetMs));
      if (slots.every((slot) => slot.givenUp)) return runSearchQuery(options.here, name, args);
      if (queue.length >= options.maxWaiting) return Promise.reject(new SearchStopped("busy", options.budgetMs));
      return new Promise<SearchQueryResult<N>>((resolve, reject) => {
        const job: Job = {
          request: { id: nextId++, name, args: args as unknown[] },
          resolve: resolve as (result: unknown) => void,
          reject,
          timer: null,
          slot: null,
        };
        job.timer = setTimeout(() => waitedTooLong(job), options.budgetMs);
        job.timer.unref();
        queue.push(job);
        dispatch();
      });
    },
    async close() {
      closing = true;
      for (const job of queue.splice(0)) {
        settle(job);
        job.reject(new SearchStopped("busy", options.budgetMs));
      }
      await Promise.all(slots.flatMap((slot) => (slot.worker ? [slot.worker.terminate()] : [])));
    },
  };
}
