/**
 * Threads that render the archive pages (incident, change and component pages) for the web server.
 * Node answers HTTP and runs Next on one thread; a page's queries and React's render, about a
 * millisecond each time, held every other request behind them, and a second core sat idle. Each
 * worker (server/archive-page-worker.ts) has its own read-only connection and renders whole pages;
 * the web thread sends it the path and writes the HTML it gets back
 * (docs/decisions/0054-archive-pages-on-worker-threads.md).
 *
 * A worker that dies is replaced, and the pages it held fail with PageWorkerUnavailable, which the
 * web server answers by rendering on its own thread: a crashing worker costs time, never a page.
 */
import { Worker } from "node:worker_threads";
import { workerThreadEntry } from "@/scripts/prebuilt-program";
import type { ArchivePageRenderer } from "@/server/archive-pages";
import type { ArchivePageReady, ArchivePageReply, ArchivePageRequest } from "@/server/archive-page-messages";

/** A worker that exits this many times within CRASH_WINDOW_MS is not started again. */
const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 60_000;

/** No worker could render the page (none running, or it stopped with the page in hand): render it elsewhere. */
export class PageWorkerUnavailable extends Error {
  readonly kind = "page-worker-unavailable";
}

export interface ArchivePagePool {
  readonly size: number;
  /** Resolved once every worker started has opened the archive (or failed to). */
  readonly ready: Promise<void>;
  /** The page's HTML, or null when the path names nothing archived; rejects with the render's error. */
  render(request: Omit<ArchivePageRequest, "id">): Promise<string | null>;
  close(): Promise<void>;
}

interface Pending {
  resolve(html: string | null): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker | null;
  pending: Map<number, Pending>;
  crashes: number[];
}

export function createArchivePagePool(options: { location: string; size: number; log: (line: string) => void }): ArchivePagePool {
  const entry = workerThreadEntry("archive-page-worker");
  const slots: Slot[] = Array.from({ length: options.size }, () => ({ worker: null, pending: new Map(), crashes: [] }));
  let nextId = 1;
  let closing = false;
  const starting: Promise<void>[] = [];

  const failPending = (slot: Slot, why: string) => {
    const pending = [...slot.pending.values()];
    slot.pending.clear();
    for (const p of pending) p.reject(new PageWorkerUnavailable(why));
  };

  const start = (slot: Slot): Promise<void> => {
    const worker = new Worker(entry.filename, { eval: entry.eval, workerData: { location: options.location } });
    slot.worker = worker;
    return new Promise<void>((resolve) => {
      worker.on("message", (message: ArchivePageReply | ArchivePageReady) => {
        if ("ready" in message) return resolve();
        const pending = slot.pending.get(message.id);
        if (!pending) return;
        slot.pending.delete(message.id);
        if ("error" in message) pending.reject(new Error(message.error));
        else pending.resolve(message.html);
      });
      let failure = "";
      worker.on("error", (error) => {
        failure = error.message;
      });
      worker.on("exit", (code) => {
        resolve();
        if (slot.worker === worker) slot.worker = null;
        if (closing) return failPending(slot, "the web server is stopping");
        const why = `archive page worker stopped (exit code ${code})${failure ? `: ${failure}` : ""}`;
        failPending(slot, why);
        const now = Date.now();
        slot.crashes = [...slot.crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
        if (slot.crashes.length >= MAX_CRASHES) {
          options.log(`${why}; ${MAX_CRASHES} stops within ${CRASH_WINDOW_MS / 1000} s, so its pages are rendered on the web thread`);
          return;
        }
        options.log(`${why}; starting another`);
        void start(slot);
      });
    });
  };

  for (const slot of slots) starting.push(start(slot));

  return {
    size: options.size,
    ready: Promise.all(starting).then(() => undefined),
    render(request) {
      let chosen: Slot | undefined;
      for (const slot of slots) {
        if (slot.worker && (!chosen || slot.pending.size < chosen.pending.size)) chosen = slot;
      }
      const slot = chosen;
      if (!slot?.worker || closing) return Promise.reject(new PageWorkerUnavailable("no archive page worker is running"));
      const id = nextId++;
      const worker = slot.worker;
      return new Promise<string | null>((resolve, reject) => {
        slot.pending.set(id, { resolve, reject });
        worker.postMessage({ ...request, id } satisfies ArchivePageRequest);
      });
    },
    async close() {
      closing = true;
      await Promise.all(slots.flatMap((slot) => (slot.worker ? [slot.worker.terminate()] : [])));
    },
  };
}

/**
 * Renders on the pool's workers; a page no worker could take is rendered by `here` (the web
 * thread's own renderer). A page whose render failed on a worker is not tried again: the error is the page's.
 */
export function pooledRenderer(pool: ArchivePagePool, stylesheets: () => readonly string[], here: ArchivePageRenderer): ArchivePageRenderer {
  return async (pathname, search, now) => {
    try {
      return await pool.render({ pathname, search, stylesheets: stylesheets(), now: now.getTime() });
    } catch (error) {
      if (error instanceof PageWorkerUnavailable) return here(pathname, search, now);
      throw error;
    }
  };
}
