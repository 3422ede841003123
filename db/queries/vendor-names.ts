import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

export interface VendorName {
  slug: string;
  name: string;
}

const statements = statementsFor((c: Connection) => ({
  names: c.prepare<[], VendorName>(`SELECT slug, name FROM vendors ORDER BY ${c.dialect.queries.orderIgnoringCase("name")}, slug`),
}));

/** Every vendor's slug and name, by name: what a vendor filter offers. */
export async function listVendorNames(db: RedlineDb): Promise<VendorName[]> {
  return statements(db).names.all();
}

const lookups = statementsFor((c: Connection) => ({
  exists: c.prepare<[string], { n: number }>("SELECT 1 AS n FROM vendors WHERE slug = ?"),
}));

/** The first of these slugs that names no vendor, or null when all do. */
export async function findUnknownVendor(db: RedlineDb, slugs: readonly string[]): Promise<string | null> {
  const st = lookups(db);
  for (const slug of slugs) if ((await st.exists.get(slug)) === undefined) return slug;
  return null;
}
