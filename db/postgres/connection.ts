import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import pg from "pg";
import type { Connection, Dialect, RunResult, Statement } from "@/db/driver/database";
import { translateToPostgres } from "@/db/postgres/sql-text";

/**
 * node-postgres behind the same interface as SQLite's statements. A statement runs on the
 * transaction's client when the async chain is inside one (`transaction`), else on any pooled
 * client. Values come back as SQLite gives them: int8 and numeric as numbers (ids, counts, sums:
 * nothing Redline stores passes 2^53), booleans as 1 and 0, json and jsonb as text.
 */

/** The writer lock `immediate` transactions take, as SQLite's BEGIN IMMEDIATE takes its write lock. */
const WRITER_LOCK = 0x7265646c; // "redl"

const OIDS = { bool: 16, int8: 20, json: 114, numeric: 1700, jsonb: 3802 } as const;

const asSqlite: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) => {
    if (oid === OIDS.int8 || oid === OIDS.numeric) return (value: string) => Number(value);
    if (oid === OIDS.bool) return (value: string) => (value === "t" ? 1 : 0);
    if (oid === OIDS.json || oid === OIDS.jsonb) return (value: string) => value;
    return pg.types.getTypeParser(oid, format as "text");
  }) as pg.CustomTypesConfig["getTypeParser"],
};

/** The transaction an async chain is inside; callbacks that outlive it must not think they still are. */
interface Open {
  client: pg.PoolClient;
  active: boolean;
}

export interface PostgresConnection extends Connection {
  readonly pool: pg.Pool;
  /** Run `work` in a transaction on one client; nested calls join it. */
  transaction<T>(work: () => Promise<T>, options?: { immediate?: boolean }): Promise<T>;
  inTransaction(): boolean;
  close(): Promise<void>;
}

export function postgresConnection(pool: pg.Pool, dialect: Dialect): PostgresConnection {
  const scope = new AsyncLocalStorage<Open>();
  const open = (): pg.PoolClient | undefined => {
    const current = scope.getStore();
    return current?.active ? current.client : undefined;
  };
  const query = (config: pg.QueryConfig): Promise<pg.QueryResult> => (open() ?? pool).query({ ...config, types: asSqlite });

  return {
    dialect,
    pool,
    prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R> {
      const translated = translateToPostgres(sql);
      const name = `r${createHash("sha1").update(translated.text).digest("hex").slice(0, 16)}`;
      const execute = (params: readonly unknown[]) => query({ name, text: translated.text, values: translated.bind(params) });
      return {
        run: async (...params): Promise<RunResult> => {
          const result = await execute(params);
          const first = result.rows[0] as Record<string, unknown> | undefined;
          const id = first ? Object.values(first)[0] : undefined;
          return { changes: result.rowCount ?? 0, lastInsertRowid: typeof id === "number" ? id : 0 };
        },
        get: async (...params) => (await execute(params)).rows[0] as R | undefined,
        all: async (...params) => (await execute(params)).rows as R[],
      };
    },
    exec: async (sql) => {
      await query({ text: sql });
    },
    inTransaction: () => open() !== undefined,
    async transaction<T>(work: () => Promise<T>, options: { immediate?: boolean } = {}): Promise<T> {
      if (open()) return work();
      const client = await pool.connect();
      const frame: Open = { client, active: true };
      let broken: unknown;
      try {
        // The writer's lock goes with its BEGIN: one round trip (the lock's key is a constant).
        await client.query(options.immediate ? `BEGIN; SELECT pg_advisory_xact_lock(${WRITER_LOCK})` : "BEGIN");
        const result = await scope.run(frame, work);
        frame.active = false;
        await client.query("COMMIT");
        return result;
      } catch (error) {
        frame.active = false;
        await client.query("ROLLBACK").catch((rollback: unknown) => {
          broken = rollback;
        });
        throw error;
      } finally {
        // A client whose rollback failed is in an unknown state: the pool drops it instead of reusing it.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    close: () => pool.end(),
  };
}
