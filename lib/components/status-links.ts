import { paths } from "@/lib/incident-key";

/**
 * "See the page as it was": the vendor's status page as of `at` (an ISO time), or as it is now
 * without one. Link it wherever a page shows a time that matters.
 */
export function statusPageHref(slug: string, at?: string | null): string {
  return at ? paths.vendorStatusAt(slug, at) : `${paths.vendor(slug)}/status`;
}
