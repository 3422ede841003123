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
export function listVendorNames(db: RedlineDb): VendorName[] {
  return statements(db).names.all();
}
