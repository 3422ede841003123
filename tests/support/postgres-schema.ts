import path from "node:path";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { RedlineDb } from "@/db/client";

export const POSTGRES_MIGRATIONS_DIR = path.join(process.cwd(), "db", "migrations-postgres");

export interface MigratedPostgres {
  pool: pg.Pool;
  db: NodePgDatabase;
  close(): Promise<void>;
}

/** A pool on the database at `url` with Redline's PostgreSQL migrations applied by drizzle's migrator. */
export async function migratedPostgres(url: string): Promise<MigratedPostgres> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = drizzle(pool);
  try {
    await migrate(db, { migrationsFolder: POSTGRES_MIGRATIONS_DIR });
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { pool, db, close: () => pool.end() };
}

/**
 * Runs one statement written with `?` placeholders in both databases, so a test can do the same
 * thing to each and compare what it left.
 */
export function bothDialects(sqlite: RedlineDb, pool: pg.Pool) {
  return async (statement: string, params: unknown[] = []): Promise<void> => {
    sqlite.$client.prepare(statement).run(...params);
    let n = 0;
    await pool.query(
      statement.replace(/\?/g, () => `$${(n += 1)}`),
      params,
    );
  };
}
