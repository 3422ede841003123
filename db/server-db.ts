import { openDatabase, type RedlineDb } from "@/db/client";
import { readEnv } from "@/lib/env";

const globalForDb = globalThis as unknown as { redlineDb?: RedlineDb };

/** The web process's one connection, opened (and migrated) on first use. */
export function getServerDb(): RedlineDb {
  if (!globalForDb.redlineDb) globalForDb.redlineDb = openDatabase(readEnv().REDLINE_DB);
  return globalForDb.redlineDb;
}
