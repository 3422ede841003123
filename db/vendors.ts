import { asc, eq, sql } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { incidents, vendors } from "@/db/schema";

export type VendorRow = typeof vendors.$inferSelect;

export class VendorError extends Error {
  readonly kind = "vendor";
}

/** Slugs appear in URLs and file names: lowercase letters, digits and single dashes. */
export const VENDOR_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function getVendorBySlug(db: RedlineDb, slug: string): VendorRow | undefined {
  return db.select().from(vendors).where(eq(vendors.slug, slug)).get();
}

/** The vendor with this slug, created on first use. */
export function ensureVendor(
  db: RedlineDb,
  input: { slug: string; name?: string; platform: string },
  now: string = new Date().toISOString(),
): VendorRow {
  if (!VENDOR_SLUG_PATTERN.test(input.slug)) {
    throw new VendorError(`store: invalid vendor slug ${JSON.stringify(input.slug)} (use lowercase letters, digits and dashes)`);
  }
  const existing = getVendorBySlug(db, input.slug);
  if (existing) return existing;
  return db
    .insert(vendors)
    .values({ slug: input.slug, name: input.name ?? input.slug, platform: input.platform, createdAt: now })
    .returning()
    .get();
}

export interface VendorSummary {
  slug: string;
  name: string;
  platform: string;
  incidentCount: number;
  lastChangedAt: string | null;
}

/** Every vendor with how many incidents it has and when one last changed. */
export function listVendorSummaries(db: RedlineDb): VendorSummary[] {
  return db
    .select({
      slug: vendors.slug,
      name: vendors.name,
      platform: vendors.platform,
      incidentCount: sql<number>`count(${incidents.id})`,
      lastChangedAt: sql<string | null>`max(${incidents.lastChangedAt})`,
    })
    .from(vendors)
    .leftJoin(incidents, eq(incidents.vendorId, vendors.id))
    .groupBy(vendors.id)
    .orderBy(asc(vendors.name))
    .all();
}
