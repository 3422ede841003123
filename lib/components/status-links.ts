import { paths } from "@/lib/incident-key";

/**
 * "See the page as it was": the vendor's status page as of `at` (an ISO time), or as it is now
 * without one. Link it wherever a page shows a time that matters.
 */
export function statusPageHref(slug: string, at?: string | null): string {
  const page = `${paths.vendor(slug)}/status`;
  // A colon needs no escape in a query: the times stay readable in the address bar.
  return at ? `${page}?at=${encodeURIComponent(at).replaceAll("%3A", ":")}` : page;
}

/** A component's own page, by the vendor's id of it. */
export function componentPageHref(slug: string, componentKey: string): string {
  return `${paths.vendor(slug)}/components/${encodeURIComponent(componentKey)}`;
}
