import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { RedlineDb } from "@/db/driver/database";
import { postgresConnection } from "@/db/postgres/connection";
import { postgresDialect } from "@/db/postgres/dialect";
import * as postgresSchema from "@/db/schema/postgres";

/** How a PostgreSQL archive's connections are made: how many, and how long a statement may run before the server cancels it. */
export interface PostgresPoolOptions {
  poolSize?: number;
  statementTimeoutMs?: number;
  /** How long a statement waits for a free connection before it fails. */
  waitMs?: number;
}

/** Connections per process: the poller's polls and a web server's requests share them. */
const POSTGRES_POOL_SIZE = 10;

/** A pool of connections to the database at `url`; `refused` makes the error code reaching for SQLite's connection gets. */
export function openPostgresDatabase(url: string, options: PostgresPoolOptions, refused: (message: string) => Error): RedlineDb {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? POSTGRES_POOL_SIZE,
    ...(options.statementTimeoutMs === undefined ? {} : { statement_timeout: options.statementTimeoutMs }),
    ...(options.waitMs === undefined ? {} : { connectionTimeoutMillis: options.waitMs }),
  });
  // An idle client's error (the server restarted, a network cut) would otherwise crash the process; the next query reports it.
  pool.on("error", () => {});
  const connection = postgresConnection(pool, postgresDialect);
  const orm = drizzle(pool, { schema: postgresSchema });
  Object.defineProperty(orm, "$client", {
    get() {
      throw refused("store: SQLite-only code reached on PostgreSQL (it used the SQLite connection)");
    },
  });
  return Object.assign(orm, { connection }) as unknown as RedlineDb;
}
