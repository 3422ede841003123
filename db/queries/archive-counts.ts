import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";
import type { ArchiveCounts } from "@/lib/home-empty";

const statements = statementsFor((c: Connection) => ({
  counts: c.prepare<[], ArchiveCounts>(
    `SELECT (SELECT count(*) FROM vendors) AS "vendors", (SELECT count(*) FROM vendors WHERE enabled = TRUE AND url IS NOT NULL) AS "polledVendors",
       (SELECT count(*) FROM incidents) AS "incidents"`,
  ),
}));

/** How many vendors (and of them polled) and incidents the archive holds: what an empty list says. */
export async function countArchive(db: RedlineDb): Promise<ArchiveCounts> {
  const row = await statements(db).counts.get();
  return { vendors: Number(row?.vendors ?? 0), polledVendors: Number(row?.polledVendors ?? 0), incidents: Number(row?.incidents ?? 0) };
}
