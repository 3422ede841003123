import { and, asc, eq, inArray, isNotNull, isNull, lte, notInArray, or, sql } from "drizzle-orm";
import type { RedlineDb } from "@/db/client";
import { incidents, pollState, sources, vendors } from "@/db/schema";
import type { VendorRow } from "@/db/vendors";

export type SourceRow = typeof sources.$inferSelect;
export type PollStateRow = typeof pollState.$inferSelect;

/** Enabled vendors with a URL whose next poll is due (or never scheduled), soonest first. */
export function listDueVendors(db: RedlineDb, now: string, limit: number, excludeIds: readonly number[] = []): VendorRow[] {
  return db
    .select({ vendor: vendors })
    .from(vendors)
    .leftJoin(pollState, eq(pollState.vendorId, vendors.id))
    .where(
      and(
        eq(vendors.enabled, true),
        isNotNull(vendors.url),
        or(isNull(pollState.nextPollAt), lte(pollState.nextPollAt, now)),
        excludeIds.length > 0 ? notInArray(vendors.id, [...excludeIds]) : undefined,
      ),
    )
    .orderBy(asc(sql`coalesce(${pollState.nextPollAt}, '')`), asc(vendors.id))
    .limit(limit)
    .all()
    .map((r) => r.vendor);
}

/** Every enabled vendor with a URL (or the one asked for). */
export function listPollableVendors(db: RedlineDb, slug?: string): VendorRow[] {
  return db
    .select()
    .from(vendors)
    .where(and(eq(vendors.enabled, true), isNotNull(vendors.url), slug === undefined ? undefined : eq(vendors.slug, slug)))
    .orderBy(asc(vendors.id))
    .all();
}

/** When the next vendor not already being polled falls due, or null when none is scheduled. */
export function nextDueAt(db: RedlineDb, excludeIds: readonly number[] = []): string | null {
  const row = db
    .select({ at: sql<string | null>`min(${pollState.nextPollAt})` })
    .from(pollState)
    .innerJoin(vendors, eq(vendors.id, pollState.vendorId))
    .where(and(eq(vendors.enabled, true), isNotNull(vendors.url), excludeIds.length > 0 ? notInArray(vendors.id, [...excludeIds]) : undefined))
    .get();
  return row?.at ?? null;
}

export function getPollState(db: RedlineDb, vendorId: number): PollStateRow | undefined {
  return db.select().from(pollState).where(eq(pollState.vendorId, vendorId)).get();
}

export function savePollState(db: RedlineDb, state: PollStateRow): void {
  db.insert(pollState)
    .values(state)
    .onConflictDoUpdate({ target: pollState.vendorId, set: { ...state } })
    .run();
}

export function getSource(db: RedlineDb, vendorId: number, url: string): SourceRow | undefined {
  return db.select().from(sources).where(and(eq(sources.vendorId, vendorId), eq(sources.url, url))).get();
}

export function saveSource(db: RedlineDb, source: Omit<SourceRow, "id">): void {
  db.insert(sources)
    .values(source)
    .onConflictDoUpdate({ target: [sources.vendorId, sources.url], set: { ...source } })
    .run();
}

/** The vendor's incidents in these statuses, whose pages may hold a postmortem to follow. */
export function listIncidentsInStatus(db: RedlineDb, vendorId: number, statuses: readonly string[]): Array<{ providerId: string; status: string | null }> {
  if (statuses.length === 0) return [];
  return db
    .select({ providerId: incidents.providerId, status: incidents.status })
    .from(incidents)
    .where(and(eq(incidents.vendorId, vendorId), inArray(incidents.status, [...statuses])))
    .all();
}
