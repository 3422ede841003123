import fs from "node:fs";
import path from "node:path";
import { isDatabaseUrl, MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR } from "@/db/client";
import { postgresOperations } from "@/db/postgres/operations";
import { sqliteOperations } from "@/db/sqlite/operations";

export interface Readiness {
  ready: boolean;
  detail: string;
}

export interface ReadinessProbe {
  check(): Promise<Readiness>;
  close(): void;
}

function expectedMigrations(folder: string): number {
  const journal = JSON.parse(fs.readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

function readiness(applied: number, expected: number): Readiness {
  if (applied < expected) return { ready: false, detail: `${applied} of ${expected} migrations applied` };
  return { ready: true, detail: `database reachable, ${applied} migrations applied` };
}

/**
 * Whether the database answers and has every migration applied, on a connection of the probe's
 * own with a short timeout, so a probe neither waits behind a writer for long nor holds a lock
 * anyone else waits on (the database's migrationCounter).
 */
export function createReadinessProbe(location: string): ReadinessProbe {
  // Which database a location names is db/client's to say; each database's migrations are its own.
  const [operations, migrations] = isDatabaseUrl(location) ? [postgresOperations, POSTGRES_MIGRATIONS_DIR] : [sqliteOperations, MIGRATIONS_DIR];
  const expected = expectedMigrations(migrations);
  const counter = operations.migrationCounter(location);
  return {
    async check() {
      try {
        return readiness(await counter.count(), expected);
      } catch (error) {
        return { ready: false, detail: `database: ${(error as Error).message}` };
      }
    },
    close: () => counter.close(),
  };
}
