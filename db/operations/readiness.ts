import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { isDatabaseUrl, MIGRATIONS_DIR, POSTGRES_MIGRATIONS_DIR } from "@/db/client";

/** A readiness probe waits this long for a lock at most: a busy database is "not ready", not a stall. */
const PROBE_BUSY_TIMEOUT_MS = 250;
/** PostgreSQL: how long the probe waits for a connection, a network away. */
const PROBE_CONNECT_TIMEOUT_MS = 2_000;

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
 * anyone else waits on (SQLite: read-only; PostgreSQL: a statement timeout).
 */
export function createReadinessProbe(location: string): ReadinessProbe {
  return isDatabaseUrl(location) ? postgresProbe(location) : sqliteProbe(location);
}

function sqliteProbe(file: string): ReadinessProbe {
  let probe: Database.Database | null = null;
  const expected = expectedMigrations(MIGRATIONS_DIR);
  return {
    async check() {
      try {
        probe ??= new Database(file, { readonly: true, fileMustExist: true });
        probe.pragma(`busy_timeout = ${PROBE_BUSY_TIMEOUT_MS}`);
        const row = probe.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
        return readiness(row.n, expected);
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

function postgresProbe(url: string): ReadinessProbe {
  let probe: pg.Client | null = null;
  const expected = expectedMigrations(POSTGRES_MIGRATIONS_DIR);
  const drop = () => {
    const client = probe;
    probe = null;
    client?.end().catch(() => undefined);
  };
  return {
    async check() {
      try {
        if (!probe) {
          const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_CONNECT_TIMEOUT_MS, statement_timeout: PROBE_BUSY_TIMEOUT_MS });
          // A server that goes away between checks fails the next check, not the process.
          client.on("error", () => {});
          probe = client;
          await client.connect();
        }
        const result = await probe.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
        return readiness(Number(result.rows[0]?.n ?? 0), expected);
      } catch (error) {
        drop();
        return { ready: false, detail: `database: ${(error as Error).message}` };
      }
    },
    close: drop,
  };
}
