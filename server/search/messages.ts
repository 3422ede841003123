/** What the web thread and a search thread (server/search/worker.ts) say to each other. */
import type { SearchQueryName } from "@/server/search/queries";

export interface SearchRequest {
  id: number;
  name: SearchQueryName;
  args: unknown[];
}

/** The search's answer, or why it failed. */
export type SearchReply = { id: number; result: unknown } | { id: number; error: string };

/** Sent once the thread has opened the archive and listens. */
export interface SearchThreadReady {
  ready: true;
}
