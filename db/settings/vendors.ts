import { disownVendorBodies, dropUnusedBodies, type PruneSummary, vendorBodyHashes } from "@/db/history/body-pruning";
import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { vendors } from "@/db/schema";
import { transact } from "@/db/driver/transaction";
import { vendorSlugProblem } from "@/lib/vendor-slug";

export type VendorRow = typeof vendors.$inferSelect;

/** A vendors row as the table's type has it; `enabled` is stored 1/0 (SQLite) or read so (PostgreSQL). */
export const VENDOR_COLUMNS = `id, slug, name, platform, derived_with AS derivedWith, applied_observed_at AS appliedObservedAt,
  applied_source AS appliedSource, applied_hash AS appliedHash, standings_read_at AS standingsReadAt,
  standings_read_by AS standingsReadBy, created_at AS createdAt, url, interval_seconds AS intervalSeconds, enabled,
  origin, homepage, status_page_url AS statusPageUrl, hook_secret_hash AS hookSecretHash`;

export type StoredVendor = Omit<VendorRow, "enabled"> & { enabled: number };

export function vendorFromRow(row: StoredVendor): VendorRow {
  return { ...row, enabled: row.enabled === 1 };
}

interface PollValues {
  slug: string;
  name: string;
  platform: string;
  url: string;
  intervalSeconds: number | null;
  homepage: string | null;
  statusPageUrl: string | null;
  origin: "user" | "catalog";
  createdAt: string;
}

const statements = statementsFor((c: Connection) => ({
  bySlug: c.prepare<[string], StoredVendor>(`SELECT ${VENDOR_COLUMNS} FROM vendors WHERE slug = ?`),
  byId: c.prepare<[number], StoredVendor>(`SELECT ${VENDOR_COLUMNS} FROM vendors WHERE id = ?`),
  withHistory: c.prepare<[], StoredVendor>(`SELECT ${VENDOR_COLUMNS} FROM vendors WHERE applied_observed_at IS NOT NULL ORDER BY id`),
  insertImported: c.prepare<{ slug: string; name: string; platform: string; createdAt: string }, StoredVendor>(
    `INSERT INTO vendors (slug, name, platform, created_at) VALUES (@slug, @name, @platform, @createdAt) RETURNING ${VENDOR_COLUMNS}`,
  ),
  insertPolled: c.prepare<PollValues, StoredVendor>(
    `INSERT INTO vendors (slug, name, platform, url, interval_seconds, homepage, status_page_url, enabled, origin, created_at)
     VALUES (@slug, @name, @platform, @url, @intervalSeconds, @homepage, @statusPageUrl, TRUE, @origin, @createdAt) RETURNING ${VENDOR_COLUMNS}`,
  ),
  setPolled: c.prepare<Omit<PollValues, "slug" | "createdAt"> & { id: number }, StoredVendor>(
    `UPDATE vendors SET name = @name, platform = @platform, url = @url, interval_seconds = @intervalSeconds, homepage = @homepage,
       status_page_url = @statusPageUrl, enabled = TRUE, origin = @origin WHERE id = @id RETURNING ${VENDOR_COLUMNS}`,
  ),
  setCatalog: c.prepare<Omit<PollValues, "slug" | "createdAt" | "origin"> & { id: number }>(
    `UPDATE vendors SET name = @name, platform = @platform, url = @url, interval_seconds = @intervalSeconds, homepage = @homepage,
       status_page_url = @statusPageUrl WHERE id = @id`,
  ),
  dropSchedule: c.prepare<[number]>("DELETE FROM poll_state WHERE vendor_id = ?"),
  disable: c.prepare<[number]>("UPDATE vendors SET enabled = FALSE WHERE id = ?"),
  remove: c.prepare<[number]>("DELETE FROM vendors WHERE id = ?"),
  removeIncidents: c.prepare<[number]>("DELETE FROM incidents WHERE vendor_id = ?"),
  incidentCount: c.prepare<[number], { n: number }>("SELECT count(*) AS n FROM incidents WHERE vendor_id = ?"),
  setDerivedWith: c.prepare<[string, number]>("UPDATE vendors SET derived_with = ? WHERE id = ?"),
  summaries: c.prepare<[], VendorSummary>(
    // "incident.io" between "GitHub" and "Jira", not after "Zoom".
    `SELECT v.slug, v.name, v.platform, count(i.id) AS incidentCount, max(i.last_changed_at) AS lastChangedAt
      FROM vendors v LEFT JOIN incidents i ON i.vendor_id = v.id GROUP BY v.id ORDER BY ${c.dialect.queries.orderIgnoringCase("v.name")}, v.slug`,
  ),
}));

export class VendorError extends Error {
  readonly kind = "vendor";
}

/** The store's own check of a new vendor's slug, whoever adds it. */
function refuseSlug(slug: string): void {
  const problem = vendorSlugProblem(slug);
  if (problem !== null) throw new VendorError(`store: ${problem}`);
}

export async function getVendorBySlug(db: RedlineDb, slug: string): Promise<VendorRow | undefined> {
  const row = await statements(db).bySlug.get(slug);
  return row && vendorFromRow(row);
}

/** The vendor with this slug, created on first use. */
export async function getVendorById(db: RedlineDb, id: number): Promise<VendorRow | undefined> {
  const row = await statements(db).byId.get(id);
  return row && vendorFromRow(row);
}

export async function ensureVendor(
  db: RedlineDb,
  input: { slug: string; name?: string; platform: string },
  now: string = new Date().toISOString(),
): Promise<VendorRow> {
  refuseSlug(input.slug);
  const existing = await getVendorBySlug(db, input.slug);
  if (existing) return existing;
  const row = await statements(db).insertImported.get({ slug: input.slug, name: input.name ?? input.slug, platform: input.platform, createdAt: now });
  if (!row) throw new VendorError(`store: unable to add vendor ${input.slug}`);
  return vendorFromRow(row);
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
  return statements(db).summaries.all();
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
    origin,
  };
}

/** Add a new vendor to poll. Any existing slug is refused with a VendorExistsError. */
export async function addVendor(db: RedlineDb, settings: VendorSettings, origin: "user" | "catalog", now = new Date().toISOString()): Promise<VendorRow> {
  refuseSlug(settings.slug);
  const existing = await getVendorBySlug(db, settings.slug);
  if (existing) throw new VendorExistsError(existing);
  const row = await statements(db).insertPolled.get({ ...pollSettings(settings, origin), slug: settings.slug, createdAt: now });
  if (!row) throw new VendorError(`store: unable to add vendor ${settings.slug}`);
  return vendorFromRow(row);
}

/**
 * Give an existing vendor that is not polled (known only from imports, or removed) a URL to be
 * polled from, keeping its history. Whether the URL's platform suits that history is the
 * caller's check (platform families live in scrapers/). A polled vendor is refused.
 */
export async function addLiveSource(db: RedlineDb, settings: VendorSettings): Promise<VendorRow> {
  const s = statements(db);
  return transact(db, async (tx) => {
    const existing = await getVendorBySlug(tx, settings.slug);
    if (!existing) throw new VendorError(`unknown vendor ${JSON.stringify(settings.slug)}`);
    if (vendorState(existing) === "polled") throw new VendorExistsError(existing);
    const values = {
      ...pollSettings(settings, "user"),
      homepage: settings.homepage ?? existing.homepage,
      statusPageUrl: settings.statusPageUrl ?? existing.statusPageUrl,
    };
    // A removed vendor's backoff and schedule belong to its old URL: start as a new vendor would.
    await s.dropSchedule.run(existing.id);
    const row = await s.setPolled.get({ ...values, id: existing.id });
    if (!row) throw new VendorError(`store: unable to update vendor ${settings.slug}`);
    return vendorFromRow(row);
  }, { immediate: true });
}

/** Stop polling a vendor and keep its history; with `purge`, delete the vendor and everything archived of it. */
export async function removeVendor(db: RedlineDb, slug: string, purge: boolean): Promise<{ incidents: number; bodies?: PruneSummary }> {
  const vendor = await getVendorBySlug(db, slug);
  if (!vendor) throw new VendorError(`unknown vendor ${JSON.stringify(slug)}`);
  const s = statements(db);
  const count = (await s.incidentCount.get(vendor.id))?.n ?? 0;
  if (!purge) {
    await s.disable.run(vendor.id);
    return { incidents: count };
  }
  const bodies = await transact(db, async (): Promise<PruneSummary> => {
    const hashes = await vendorBodyHashes(db, vendor.id);
    // Its incidents first (their versions and states cascade): on PostgreSQL those still name its
    // captures when the vendor's delete cascades to the captures, which their foreign keys refuse.
    await s.removeIncidents.run(vendor.id);
    // Its captures go with it (foreign keys cascade); then the raw bodies no other vendor uses.
    await s.remove.run(vendor.id);
    const pruned = await dropUnusedBodies(db, hashes);
    await disownVendorBodies(db, vendor.id);
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
  const s = statements(db);
  await transact(db, async (tx) => {
    for (const entry of entries) {
      const existing = await getVendorBySlug(tx, entry.slug);
      const values = {
        name: entry.name, platform: entry.platform, url: entry.url, intervalSeconds: entry.intervalSeconds ?? null,
        homepage: entry.homepage ?? null, statusPageUrl: entry.statusPageUrl ?? null,
      };
      if (!existing) {
        refuseSlug(entry.slug);
        await s.insertPolled.run({ ...values, slug: entry.slug, origin: "catalog", createdAt: new Date().toISOString() });
        added += 1;
      } else if (existing.origin === "catalog" && (existing.url !== entry.url || existing.platform !== entry.platform || existing.name !== entry.name)) {
        await s.setCatalog.run({ ...values, id: existing.id });
        updated += 1;
      }
    }
  }, { immediate: true });
  return { added, updated };
}

/** Remember which parser versions (and derivation) derived the vendor's history. */
export async function setDerivedWith(db: RedlineDb, vendorId: number, derivedWith: Record<string, number>): Promise<void> {
  await statements(db).setDerivedWith.run(JSON.stringify(derivedWith), vendorId);
}

/** Vendors that have a derived history (at least one capture applied). */
export async function listVendorsWithHistory(db: RedlineDb): Promise<VendorRow[]> {
  return (await statements(db).withHistory.all()).map(vendorFromRow);
}
