import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";

export interface VendorName {
  slug: string;
  name: string;
}

const statements = preparedFor((sqlite) => ({
  names: sqlite.prepare<[], VendorName>("SELECT slug, name FROM vendors ORDER BY name COLLATE NOCASE, slug"),
}));

/** Every vendor's slug and name, by name: what a vendor filter offers. */
export async function listVendorNames(db: RedlineDb): Promise<VendorName[]> {
  return statements(db).names.all();
}

const lookups = preparedFor((sqlite) => ({
  exists: sqlite.prepare<[string], { n: number }>("SELECT 1 AS n FROM vendors WHERE slug = ?"),
}));

/** The first of these slugs that names no vendor, or null when all do. */
export async function findUnknownVendor(db: RedlineDb, slugs: readonly string[]): Promise<string | null> {
  const st = lookups(db);
  return slugs.find((s) => st.exists.get(s) === undefined) ?? null;
}
