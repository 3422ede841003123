/** What the web thread and an archive page worker (server/archive-page-worker.ts) say to each other. */

/** A page to render: the request's path and query, the built stylesheets, and the request's time (epoch ms). */
export interface ArchivePageRequest {
  id: number;
  pathname: string;
  search: string;
  stylesheets: readonly string[];
  now: number;
}

/** The page's HTML; null when the path names nothing archived; or why rendering it failed. */
export type ArchivePageReply = { id: number; html: string | null } | { id: number; error: string };

/** Sent once the worker has opened the archive and listens. */
export interface ArchivePageReady {
  ready: true;
}
