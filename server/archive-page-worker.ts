/**
 * A thread that renders archive pages for the web server (server/archive-page-pool.ts): its own
 * read-only connection to the archive, the pages' queries and React's static renderer, so the
 * page's work runs beside the thread that answers HTTP and Next instead of in it.
 * workerData: { location } (a SQLite file or a postgres:// URL).
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "@/db/client";
import type { ArchivePageReply, ArchivePageRequest } from "@/server/archive-page-messages";
import { renderArchivePage } from "@/server/archive-pages";

const port = parentPort;
if (!port) throw new Error("server/archive-page-worker.ts runs as a worker thread of the web server");
const { location } = workerData as { location: string };
// The web process opened (and migrated) the archive before starting this thread.
const db = openDatabase(location, { readonly: true });

port.on("message", (request: ArchivePageRequest) => {
  renderArchivePage(db, request.pathname, request.stylesheets, new Date(request.now), request.search).then(
    // The HTML as a string: the web thread encodes it as it writes, which it has the time for and this thread has not.
    (html) => port.postMessage({ id: request.id, html } satisfies ArchivePageReply),
    (error: unknown) => {
      port.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ArchivePageReply);
    },
  );
});
port.postMessage({ ready: true });
