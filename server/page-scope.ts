/**
 * What a kept page shows, read off its address, and whether an archive change concerns it: a
 * new version evicts its incident's pages, its vendor's lists and feeds, the global lists, and
 * the kind feeds of its own kinds, and leaves every other vendor's incident pages kept.
 */
import type { ArchiveChange } from "@/db/queries/archive-changes";
import { providerIdFromKey } from "@/lib/incident-key";

export type PageScope =
  /** Lists over every vendor: home, search, the global and per-kind feeds, the API's lists. */
  | { kind: "global"; changeKinds?: readonly string[] }
  /** One vendor's lists and feeds. */
  | { kind: "vendor"; vendorSlug: string; changeKinds?: readonly string[] }
  /** One incident's pages, exports, feeds and API answers. */
  | { kind: "incident"; vendorSlug: string; providerId: string };

const INCIDENT = /^(?:\/api\/v1)?\/vendors\/([^/]+)\/incidents\/([^/]+)(?:\/|$)/;
const VENDOR = /^(?:\/api\/v1)?\/vendors\/([^/]+)(?:\/|$)/;
/**
 * A kind feed carries only versions of its kind, and of the kinds its `kind` parameters add. Its
 * impact and component filters are the incident's current ones, which a version of any kind moves.
 */
const KIND_FEED = /^(?:\/vendors\/[^/]+)?\/kinds\/([^/]+)\/feed\.(?:rss|atom|json)$/;

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function changeKindsOf(pathname: string, search: URLSearchParams): readonly string[] | null {
  const named = KIND_FEED.exec(pathname)?.[1];
  const kind = named === undefined ? null : decoded(named);
  if (!kind || [...search.keys()].some((key) => key !== "kind")) return null;
  const more = search.getAll("kind").filter((k) => k !== "");
  return [...new Set([kind, ...more])];
}

/** The scope of the page at `pathname` (with its query); anything it cannot place is global, which every change evicts. */
export function pageScopeOf(pathname: string, search: URLSearchParams = new URLSearchParams()): PageScope {
  const changeKinds = changeKindsOf(pathname, search);
  const narrowed = changeKinds === null ? {} : { changeKinds };
  const incident = INCIDENT.exec(pathname);
  const vendorSlug = decoded((incident ?? VENDOR.exec(pathname))?.[1] ?? "");
  if (!vendorSlug) return { kind: "global", ...narrowed };
  const key = incident?.[2] ? decoded(incident[2]) : null;
  const providerId = key === null ? null : providerIdFromKey(key);
  return providerId === null ? { kind: "vendor", vendorSlug, ...narrowed } : { kind: "incident", vendorSlug, providerId };
}

/** Whether a change of `kinds` (null: unknown) may be among the versions a scope of `changeKinds` carries. */
function carriesKinds(changeKinds: readonly string[] | undefined, kinds: readonly string[] | null): boolean {
  return changeKinds === undefined || kinds === null || changeKinds.some((k) => kinds.includes(k));
}

/** Whether a page of `scope` may show what `change` changed. */
export function showsChange(scope: PageScope, change: ArchiveChange): boolean {
  if (scope.kind !== "incident" && change.providerId !== null && !carriesKinds(scope.changeKinds, change.kinds)) return false;
  if (scope.kind === "global" || change.vendorSlug === null) return true;
  if (scope.vendorSlug !== change.vendorSlug) return false;
  return scope.kind === "vendor" || change.providerId === null || change.providerId === scope.providerId;
}

/** `showsChange` against many changes at once, in time independent of how many there are. */
export function showsAnyOf(changes: readonly ArchiveChange[]): (scope: PageScope) => boolean {
  let everything = false;
  /** A change of a whole vendor (no incident), and one of no known vendor either: kind feeds show vendors' names. */
  let vendorWide = false;
  let unplaced = false;
  const vendors = new Set<string>();
  const wholeVendors = new Set<string>();
  const incidents = new Set<string>();
  /** Kinds of the versions changed ("*": unknown), overall and as "vendor\nkind" ("" for no vendor; no slug is empty). */
  const kinds = new Set<string>();
  const vendorKinds = new Set<string>();
  for (const change of changes) {
    if (change.vendorSlug === null) everything = true;
    else vendors.add(change.vendorSlug);
    if (change.providerId === null) {
      vendorWide = true;
      if (change.vendorSlug === null) unplaced = true;
      else wholeVendors.add(change.vendorSlug);
      continue;
    }
    if (change.vendorSlug !== null) incidents.add(`${change.vendorSlug}\n${change.providerId}`);
    for (const kind of change.kinds ?? ["*"]) {
      kinds.add(kind);
      vendorKinds.add(`${change.vendorSlug ?? ""}\n${kind}`);
    }
  }
  const carries = (has: (kind: string) => boolean, scopeKinds: readonly string[]) => has("*") || scopeKinds.some(has);
  return (scope) => {
    if (scope.kind === "incident") return everything || wholeVendors.has(scope.vendorSlug) || incidents.has(`${scope.vendorSlug}\n${scope.providerId}`);
    const scopeKinds = scope.changeKinds;
    if (scope.kind === "global") return scopeKinds === undefined ? changes.length > 0 : vendorWide || carries((k) => kinds.has(k), scopeKinds);
    if (scopeKinds === undefined) return everything || vendors.has(scope.vendorSlug);
    if (unplaced || wholeVendors.has(scope.vendorSlug)) return true;
    return carries((k) => vendorKinds.has(`${scope.vendorSlug}\n${k}`) || vendorKinds.has(`\n${k}`), scopeKinds);
  };
}
