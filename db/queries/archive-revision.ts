import type { RedlineDb } from "@/db/client";
import { preparedFor } from "@/db/queries/prepared";

const statements = preparedFor((sqlite) => ({
  revision: sqlite.prepare<[], { revision: number }>("SELECT revision FROM archive_revision WHERE id = 1"),
}));

/** A number that changes whenever anything a page shows from the archive changes. */
export async function getArchiveRevision(db: RedlineDb): Promise<number> {
  return statements(db).revision.get()?.revision ?? 0;
}
