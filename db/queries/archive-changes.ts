import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

/** Whom one change to the archive concerns: a vendor's incident, a whole vendor, or (no vendor) everything. */
export interface ArchiveChange {
  seq: number;
  vendorSlug: string | null;
  providerId: string | null;
  /** The change kinds of the version written or removed; null when unknown, which every kind feed may show. */
  kinds: readonly string[] | null;
}

interface StoredChange extends Omit<ArchiveChange, "kinds"> {
  kinds: string | null;
}

const statements = statementsFor((c: Connection) => ({
  newest: c.prepare<[], { seq: number }>("SELECT seq FROM archive_changes ORDER BY seq DESC LIMIT 1"),
  since: c.prepare<[number, number], StoredChange>(
    "SELECT seq, vendor_slug AS vendorSlug, provider_id AS providerId, kinds FROM archive_changes WHERE seq > ? ORDER BY seq LIMIT ?",
  ),
}));

/** The stored list; anything else reads as unknown, which evicts more, never less. */
function kindsOf(stored: string | null): readonly string[] | null {
  if (stored === null) return null;
  const parsed: unknown = JSON.parse(stored);
  return Array.isArray(parsed) && parsed.every((k) => typeof k === "string") ? parsed : null;
}

/** The newest change's number (0 before the first): it moves whenever a page's archived data may have. */
export async function getArchiveChangePosition(db: RedlineDb): Promise<number> {
  return (await statements(db).newest.get())?.seq ?? 0;
}

/**
 * The changes after `seq`, oldest first, at most `limit`. The triggers keep only the newest
 * 4,096, so a caller that fell further behind sees a first change later than `seq + 1`.
 */
export async function listArchiveChangesSince(db: RedlineDb, seq: number, limit: number): Promise<ArchiveChange[]> {
  return (await statements(db).since.all(seq, limit)).map((row) => ({ ...row, kinds: kindsOf(row.kinds) }));
}
