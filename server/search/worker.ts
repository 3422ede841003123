/**
 * A thread that runs the web server's searches (server/search/threads.ts) on its own read-only
 * connection, one at a time: a costly one holds up this thread only, and the web server ends the
 * thread when one runs past its budget. workerData: { location } (a SQLite file).
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "@/db/client";
import type { SearchReply, SearchRequest } from "@/server/search/messages";
import { runSearchQuery } from "@/server/search/queries";

const port = parentPort;
if (!port) throw new Error("server/search/worker.ts runs as a worker thread of the web server");
const { location } = workerData as { location: string };
// The web process opened (and migrated) the archive before starting this thread.
const db = openDatabase(location, { readonly: true });

port.on("message", (request: SearchRequest) => {
  runSearchQuery(db, request.name, request.args as never).then(
    (result) => port.postMessage({ id: request.id, result } satisfies SearchReply),
    (error: unknown) => {
      port.postMessage({ id: request.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies SearchReply);
    },
  );
});
port.postMessage({ ready: true });
