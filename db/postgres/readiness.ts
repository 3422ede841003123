import pg from "pg";
import type { MigrationCounter } from "@/db/driver/database";

/** A count waits this long for a lock at most: a busy database is "not ready", not a stall. */
const PROBE_STATEMENT_TIMEOUT_MS = 250;
/** How long the probe waits for a connection, a network away. */
const PROBE_CONNECT_TIMEOUT_MS = 2_000;

/** Counts on a client of its own with a statement timeout, so the probe holds no lock for long. */
export function postgresMigrationCounter(url: string): MigrationCounter {
  let probe: pg.Client | null = null;
  const drop = (): void => {
    const client = probe;
    probe = null;
    client?.end().catch(() => undefined);
  };
  return {
    async count() {
      try {
        if (!probe) {
          const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_CONNECT_TIMEOUT_MS, statement_timeout: PROBE_STATEMENT_TIMEOUT_MS });
          // A server that goes away between checks fails the next check, not the process.
          client.on("error", () => {});
          probe = client;
          await client.connect();
        }
        const result = await probe.query<{ n: string }>("SELECT count(*) AS n FROM drizzle.__drizzle_migrations");
        return Number(result.rows[0]?.n ?? 0);
      } catch (error) {
        drop();
        throw error;
      }
    },
    close: drop,
  };
}
