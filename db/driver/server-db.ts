import { isDatabaseUrl, openDatabase } from "@/db/client";
import type { RedlineDb } from "@/db/driver/database";
import { databaseLocation, readEnv } from "@/lib/env";

const globalForDb = globalThis as unknown as { redlineDb?: RedlineDb };

/**
 * The web process's one connection, opened on first use: a SQLite file is migrated as it opens;
 * PostgreSQL is not (migrating it is asynchronous), `npm start` and `redline migrate` did it first.
 */
export function getServerDb(): RedlineDb {
  if (!globalForDb.redlineDb) {
    const location = databaseLocation(readEnv());
    globalForDb.redlineDb = openDatabase(location, { migrate: !isDatabaseUrl(location) });
  }
  return globalForDb.redlineDb;
}
