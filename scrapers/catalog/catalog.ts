/**
 * The built-in vendor catalog: what Redline polls out of the box, read from vendors.json.
 *
 * Platforms and base URLs come from the MIT-licensed APVentureEngine/vendor-status-watch map
 * (itself seeded from metoro-io/statusphere, probed 2026-09; only its reachable, machine-readable
 * rows), plus our own knowledge for vendors it lacks. URLs are re-checked by the poller at run
 * time, not by tests: the machines that run the tests have no internet.
 */
import type { z } from "zod";
import type { VendorSettings } from "@/db/settings/vendors";
import { type CatalogEntry, catalogSchema } from "@/scrapers/catalog/catalog-schema";
import vendors from "@/scrapers/catalog/vendors.json";

export class CatalogError extends Error {
  readonly kind = "catalog";
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const [index, ...field] = issue.path;
  const where = typeof index === "number" ? `entry ${index}` : "the file";
  if (issue.code === "unrecognized_keys") return `${where}: unknown field ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  const name = field.length > 0 ? field.map(String).join(".") : "(entry)";
  return `${where}, field "${name}": ${issue.message}`;
}

/** Validate catalog data; a broken entry throws, naming its index and field. */
export function parseCatalog(data: unknown): CatalogEntry[] {
  const result = catalogSchema.safeParse(data);
  if (result.success) return result.data;
  const issues = result.error.issues.map(describeIssue);
  throw new CatalogError(`catalog: vendors.json is invalid: ${issues.join("; ")}`, { cause: result.error });
}

export const CATALOG: readonly CatalogEntry[] = Object.freeze(parseCatalog(vendors));

const BY_SLUG = new Map(CATALOG.map((entry) => [entry.slug, entry]));

export function findCatalogEntry(slug: string): CatalogEntry | undefined {
  return BY_SLUG.get(slug);
}

/** The catalog as vendor rows to add or update. */
export function catalogVendorSettings(): VendorSettings[] {
  return CATALOG.map((e) => ({
    slug: e.slug, name: e.name, platform: e.platform, url: e.url,
    intervalSeconds: e.intervalSeconds ?? null, homepage: e.homepage, statusPageUrl: e.statusPage,
  }));
}
