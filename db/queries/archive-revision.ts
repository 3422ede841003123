import type { Connection, RedlineDb } from "@/db/driver/database";
import { statementsFor } from "@/db/driver/prepared";

const statements = statementsFor((c: Connection) => ({
  revision: c.prepare<[], { revision: number }>("SELECT revision FROM archive_revision WHERE id = 1"),
}));

/** A number that changes whenever anything a page shows from the archive changes. */
export async function getArchiveRevision(db: RedlineDb): Promise<number> {
  return (await statements(db).revision.get())?.revision ?? 0;
}
