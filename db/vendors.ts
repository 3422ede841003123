import { asc, eq, isNotNull, sql } from "drizzle-orm";
import { disownVendorBodies, dropUnusedBodies, type PruneSummary, vendorBodyHashes } from "@/db/body-pruning";
import type { RedlineDb } from "@/db/client";
import { incidents, pollState, vendors } from "@/db/schema";
import { transact } from "@/db/transaction";

export type VendorRow = typeof vendors.$inferSelect;

export class VendorError extends Error {
  readonly kind = "vendor";
}

/** Slugs appear in URLs and file names: lowercase letters, digits and single dashes. */
export const VENDOR_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export async function getVendorBySlug(db: RedlineDb, slug: string): Promise<VendorRow | undefined> {
  return db.select().from(vendors).where(eq(vendors.slug, slug)).get();
}

/** The vendor with this slug, created on first use. */
export async function getVendorById(db: RedlineDb, id: number): Promise<VendorRow | undefined> {
  return db.select().from(vendors).where(eq(vendors.id, id)).get();
}

export async function ensureVendor(
  db: RedlineDb,
  input: { slug: string; name?: string; platform: string },
  now: string = new Date().toISOString(),
): Promise<VendorRow> {
  if (!VENDOR_SLUG_PATTERN.test(input.slug)) {
    throw new VendorError(`store: invalid vendor slug ${JSON.stringify(input.slug)} (use lowercase letters, digits and dashes)`);
  }
  const existing = await getVendorBySlug(db, input.slug);
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
export async function listVendorSummaries(db: RedlineDb): Promise<VendorSummary[]> {
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
    // "incident.io" between "GitHub" and "Jira", not after "Zoom".
    .orderBy(sql`${vendors.name} collate nocase`, asc(vendors.slug))
    .all();
}

export interface VendorSettings {
  slug: string;
  name: string;
  platform: string;
  url: string;
  intervalSeconds?: number | null;
  homepage?: string | null;
  statusPageUrl?: string | null;
}

/** Refused: a vendor with this slug exists already. `existing` lets the caller say how to proceed. */
export class VendorExistsError extends Error {
  readonly kind = "vendor-exists";
  constructor(readonly existing: VendorRow) {
    super(`vendor ${existing.slug} already exists: ${describeVendorState(existing)}`);
  }
}

export type VendorState = "imported" | "polled" | "removed";

/** What a vendor is to the poller: known only from imports, polled from its URL, or removed (history kept). */
export function vendorState(vendor: VendorRow): VendorState {
  if (!vendor.enabled) return "removed";
  return vendor.url === null ? "imported" : "polled";
}

export function describeVendorState(vendor: VendorRow): string {
  const added = vendor.origin === "catalog" ? "from the built-in catalog" : "added by hand";
  if (!vendor.enabled) {
    const was = vendor.url === null ? `imported as ${vendor.platform}, never polled` : `was polled from ${vendor.url} with ${vendor.platform}`;
    return `removed, its history kept (${was})`;
  }
  if (vendor.url === null) return `imported as ${vendor.platform}, not polled`;
  return `polled from ${vendor.url} with ${vendor.platform} (${added})`;
}

function pollSettings(settings: VendorSettings, origin: "user" | "catalog") {
  return {
    name: settings.name,
    platform: settings.platform,
    url: settings.url,
    intervalSeconds: settings.intervalSeconds ?? null,
    homepage: settings.homepage ?? null,
    statusPageUrl: settings.statusPageUrl ?? null,
    enabled: true,
    origin,
  };
}

/** Add a new vendor to poll. Any existing slug is refused with a VendorExistsError. */
export async function addVendor(db: RedlineDb, settings: VendorSettings, origin: "user" | "catalog", now = new Date().toISOString()): Promise<VendorRow> {
  const existing = await getVendorBySlug(db, settings.slug);
  if (existing) throw new VendorExistsError(existing);
  return db.insert(vendors).values({ ...pollSettings(settings, origin), slug: settings.slug, createdAt: now }).returning().get();
}

/**
 * Give an existing vendor that is not polled (known only from imports, or removed) a URL to be
 * polled from, keeping its history. Whether the URL's platform suits that history is the
 * caller's check (platform families live in scrapers/). A polled vendor is refused.
 */
export async function addLiveSource(db: RedlineDb, settings: VendorSettings): Promise<VendorRow> {
  return transact(db, async (tx) => {
    const existing = tx.select().from(vendors).where(eq(vendors.slug, settings.slug)).get();
    if (!existing) throw new VendorError(`unknown vendor ${JSON.stringify(settings.slug)}`);
    if (vendorState(existing) === "polled") throw new VendorExistsError(existing);
    const values = {
      ...pollSettings(settings, "user"),
      homepage: settings.homepage ?? existing.homepage,
      statusPageUrl: settings.statusPageUrl ?? existing.statusPageUrl,
    };
    // A removed vendor's backoff and schedule belong to its old URL: start as a new vendor would.
    tx.delete(pollState).where(eq(pollState.vendorId, existing.id)).run();
    return tx.update(vendors).set(values).where(eq(vendors.id, existing.id)).returning().get();
  }, { immediate: true });
}

/** Stop polling a vendor and keep its history; with `purge`, delete the vendor and everything archived of it. */
export async function removeVendor(db: RedlineDb, slug: string, purge: boolean): Promise<{ incidents: number; bodies?: PruneSummary }> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) throw new VendorError(`unknown vendor ${JSON.stringify(slug)}`);
  const count = db.select({ n: sql<number>`count(*)` }).from(incidents).where(eq(incidents.vendorId, vendor.id)).get()?.n ?? 0;
  if (!purge) {
    db.update(vendors).set({ enabled: false }).where(eq(vendors.id, vendor.id)).run();
    return { incidents: count };
  }
  const sqlite = db.$client;
  const bodies = await transact(db, async (): Promise<PruneSummary> => {
    const hashes = vendorBodyHashes(sqlite, vendor.id);
    // Its captures go with it (foreign keys cascade); then the raw bodies no other vendor uses.
    db.delete(vendors).where(eq(vendors.id, vendor.id)).run();
    const pruned = dropUnusedBodies(sqlite, hashes);
    disownVendorBodies(sqlite, vendor.id);
    return pruned;
  }, { immediate: true });
  return { incidents: count, bodies };
}

/**
 * Bring the built-in catalog into the database: new entries are added, catalog vendors follow
 * their entry's changes, and vendors an operator removed or added by hand are left alone.
 */
export async function syncCatalogVendors(db: RedlineDb, entries: readonly VendorSettings[]): Promise<{ added: number; updated: number }> {
  let added = 0;
  let updated = 0;
  await transact(db, async (tx) => {
    for (const entry of entries) {
      const existing = tx.select().from(vendors).where(eq(vendors.slug, entry.slug)).get();
      const values = {
        name: entry.name, platform: entry.platform, url: entry.url, intervalSeconds: entry.intervalSeconds ?? null,
        homepage: entry.homepage ?? null, statusPageUrl: entry.statusPageUrl ?? null,
      };
      if (!existing) {
        tx.insert(vendors).values({ ...values, slug: entry.slug, origin: "catalog", enabled: true, createdAt: new Date().toISOString() }).run();
        added += 1;
      } else if (existing.origin === "catalog" && (existing.url !== entry.url || existing.platform !== entry.platform || existing.name !== entry.name)) {
        tx.update(vendors).set(values).where(eq(vendors.id, existing.id)).run();
        updated += 1;
      }
    }
  }, { immediate: true });
  return { added, updated };
}

/** Remember which parser versions (and derivation) derived the vendor's history. */
export async function setDerivedWith(db: RedlineDb, vendorId: number, derivedWith: Record<string, number>): Promise<void> {
  db.update(vendors).set({ derivedWith: JSON.stringify(derivedWith) }).where(eq(vendors.id, vendorId)).run();
}

/** Vendors that have a derived history (at least one capture applied). */
export async function listVendorsWithHistory(db: RedlineDb): Promise<VendorRow[]> {
  return db.select().from(vendors).where(isNotNull(vendors.appliedObservedAt)).all();
}
