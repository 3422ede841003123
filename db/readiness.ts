import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MIGRATIONS_DIR } from "@/db/client";

/** A readiness probe waits this long for a lock at most: a busy database is "not ready", not a stall. */
const PROBE_BUSY_TIMEOUT_MS = 250;

export interface Readiness {
  ready: boolean;
  detail: string;
}

function expectedMigrations(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

/**
 * Whether the database answers and has every migration applied, on a read-only connection of the
 * probe's own with a short busy timeout, so a probe neither waits behind a writer for long nor
 * holds a lock anyone else waits on.
 */
export function createReadinessProbe(file: string): { check(): Promise<Readiness>; close(): void } {
  let probe: Database.Database | null = null;
  const expected = expectedMigrations();
  return {
    async check() {
      try {
        probe ??= new Database(file, { readonly: true, fileMustExist: true });
        probe.pragma(`busy_timeout = ${PROBE_BUSY_TIMEOUT_MS}`);
        const row = probe.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
        if (row.n < expected) return { ready: false, detail: `${row.n} of ${expected} migrations applied` };
        return { ready: true, detail: `database reachable, ${row.n} migrations applied` };
      } catch (error) {
        probe?.close();
        probe = null;
        return { ready: false, detail: `database: ${(error as Error).message}` };
      }
    },
    close() {
      probe?.close();
      probe = null;
    },
  };
}
