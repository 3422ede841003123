/**
 * What a kept page shows, read off its address, and whether an archive change concerns it: a
 * new version evicts its incident's pages, its vendor's lists and feeds, and the global lists,
 * and leaves every other vendor's incident pages kept.
 */
import type { ArchiveChange } from "@/db/queries/archive-changes";
import { providerIdFromKey } from "@/lib/incident-key";

export type PageScope =
  /** Lists over every vendor: home, search, the global and per-kind feeds, the API's lists. */
  | { kind: "global" }
  /** One vendor's lists and feeds. */
  | { kind: "vendor"; vendorSlug: string }
  /** One incident's pages, exports, feeds and API answers. */
  | { kind: "incident"; vendorSlug: string; providerId: string };

const INCIDENT = /^(?:\/api\/v1)?\/vendors\/([^/]+)\/incidents\/([^/]+)(?:\/|$)/;
const VENDOR = /^(?:\/api\/v1)?\/vendors\/([^/]+)(?:\/|$)/;

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The scope of the page at `pathname`; anything it cannot place is global, which every change evicts. */
export function pageScopeOf(pathname: string): PageScope {
  const incident = INCIDENT.exec(pathname);
  const vendorSlug = decoded((incident ?? VENDOR.exec(pathname))?.[1] ?? "");
  if (!vendorSlug) return { kind: "global" };
  const key = incident?.[2] ? decoded(incident[2]) : null;
  const providerId = key === null ? null : providerIdFromKey(key);
  return providerId === null ? { kind: "vendor", vendorSlug } : { kind: "incident", vendorSlug, providerId };
}

/** Whether a page of `scope` may show what `change` changed. */
export function showsChange(scope: PageScope, change: ArchiveChange): boolean {
  if (scope.kind === "global" || change.vendorSlug === null) return true;
  if (scope.vendorSlug !== change.vendorSlug) return false;
  return scope.kind === "vendor" || change.providerId === null || change.providerId === scope.providerId;
}

/** `showsChange` against many changes at once, in time independent of how many there are. */
export function showsAnyOf(changes: readonly ArchiveChange[]): (scope: PageScope) => boolean {
  let everything = false;
  const vendors = new Set<string>();
  const wholeVendors = new Set<string>();
  const incidents = new Set<string>();
  for (const change of changes) {
    if (change.vendorSlug === null) everything = true;
    else {
      vendors.add(change.vendorSlug);
      if (change.providerId === null) wholeVendors.add(change.vendorSlug);
      else incidents.add(`${change.vendorSlug}\n${change.providerId}`);
    }
  }
  return (scope) => {
    if (scope.kind === "global") return changes.length > 0;
    if (everything) return true;
    if (scope.kind === "vendor") return vendors.has(scope.vendorSlug);
    return wholeVendors.has(scope.vendorSlug) || incidents.has(`${scope.vendorSlug}\n${scope.providerId}`);
  };
}
