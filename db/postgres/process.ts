import os from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import type { ProcessDialect } from "@/db/driver/database";
import type { PostgresConnection } from "@/db/postgres/connection";

/** The key of the advisory lock migrations run under ("rdmg"). */
const MIGRATION_LOCK = 0x72646d67;

/** What the processes around a PostgreSQL archive need to know of it (db/driver/database.ts). */
export const postgresProcess: ProcessDialect = {
  migrationsFolder: path.join(process.cwd(), "db", "migrations-postgres"),
  /**
   * Under an advisory lock: drizzle's migrator takes none, and several processes starting at once
   * on an empty database would each create the tables.
   */
  async applyMigrations(db, folder, steps) {
    const connection = db.connection as PostgresConnection;
    const client = await connection.pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      try {
        await migrate(drizzle(client), { migrationsFolder: folder });
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
      }
    } catch (error) {
      throw steps.failed(error);
    } finally {
      client.release();
    }
  },
  tidiesSearchIndex: false,
  searchesOnServer: true,
  scratchFolder: () => os.tmpdir(),
  async identity(location, db) {
    const row = await db.connection
      .prepare<[], { db: string; addr: string | null; port: number | null }>("SELECT current_database() AS db, host(inet_server_addr()) AS addr, inet_server_port() AS port")
      .get();
    const url = new URL(location);
    return `postgres:${row?.addr ?? url.hostname}:${row?.port ?? url.port}/${row?.db ?? url.pathname}`;
  },
};

/** `postgres://…` or `postgresql://…`: a location naming a PostgreSQL database. */
export function isPostgresUrl(location: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1]?.toLowerCase();
  return scheme === "postgres" || scheme === "postgresql";
}
