import Database from "better-sqlite3";
import type { MigrationCounter } from "@/db/driver/database";

/** A readiness probe waits this long for a lock at most: a busy database is "not ready", not a stall. */
const PROBE_BUSY_TIMEOUT_MS = 250;

/** Counts on the file opened read-only, so the probe holds no lock anyone else waits on. */
export function sqliteMigrationCounter(file: string): MigrationCounter {
  let probe: Database.Database | null = null;
  const close = (): void => {
    probe?.close();
    probe = null;
  };
  return {
    async count() {
      try {
        probe ??= new Database(file, { readonly: true, fileMustExist: true });
        probe.pragma(`busy_timeout = ${PROBE_BUSY_TIMEOUT_MS}`);
        const row = probe.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
        return row.n;
      } catch (error) {
        close();
        throw error;
      }
    },
    close,
  };
}
