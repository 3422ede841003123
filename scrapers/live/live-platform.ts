/** One URL to poll, and the parser (an import platform name) its bodies are read with. */
export interface Endpoint {
  url: string;
  platform: string;
}

export interface PollPlan {
  /** Polled on every round; their captures list the vendor's incidents. */
  endpoints: Endpoint[];
  /** Polled instead when the endpoints fail permanently (an API switched off: 404, 403, 410, HTML). */
  fallback?: Endpoint[];
  /**
   * The component grid, where the page states it apart from its incidents: polled after the
   * endpoints, so that an incident posted with a degradation is recorded first and the degradation
   * does not look unexplained. Its failure is recorded as its capture and fails nothing else.
   */
  grid?: Endpoint[];
}

/** Every URL a plan may fetch in a round (follow-up pages aside). */
export function plannedEndpoints(plan: PollPlan): Endpoint[] {
  return [...plan.endpoints, ...(plan.fallback ?? []), ...(plan.grid ?? [])];
}

/**
 * A status-page product Redline can poll live. Given the vendor's URL (the status page's base
 * URL, or an exact endpoint), it says what to fetch; parsing is the import platforms' job.
 */
export interface LivePlatform {
  name: string;
  description: string;
  /** Where the format is documented (vendor documentation URL). */
  docs: string;
  plan(url: URL): PollPlan;
  /** Statuses whose incidents have pages worth following (Statuspage: "postmortem"). */
  followUpStatuses?: readonly string[];
  /** The pages to fetch for the vendor's incidents in those statuses (Statuspage postmortems). */
  followUps?(incidents: ReadonlyArray<{ id: string; status: string | null }>, url: URL): Endpoint[];
}

export class PlanError extends Error {
  readonly kind = "plan";
}

/** The status page's origin plus a path, whatever path the vendor's URL had. */
export function atOrigin(url: URL, pathname: string): string {
  return new URL(pathname, url.origin).toString();
}

/** True when the URL already names an endpoint (a path ending in one of the given suffixes). */
export function pointsAt(url: URL, ...suffixes: string[]): boolean {
  return suffixes.some((s) => url.pathname.endsWith(s));
}
