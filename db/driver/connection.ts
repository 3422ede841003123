/**
 * The statements every data function runs, whichever database holds the archive. SQLite's are
 * better-sqlite3's prepared statements; PostgreSQL's go through node-postgres. Both are
 * asynchronous here, and take and return the same values: parameters by position (`?`) or by
 * name (`@name`), rows with the column names the SQL gives them, integers and booleans as numbers,
 * JSON as text (docs/decisions/0045-one-data-layer-two-databases.md).
 */

import type { Dialect } from "@/db/driver/dialect";

/** What a statement without rows reports. `lastInsertRowid` needs `RETURNING id` on PostgreSQL. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

type Bound<P> = P extends readonly unknown[] ? P : [P];

export interface Statement<P extends unknown[] | object = unknown[], R = unknown> {
  run(...params: Bound<P>): Promise<RunResult>;
  get(...params: Bound<P>): Promise<R | undefined>;
  all(...params: Bound<P>): Promise<R[]>;
}

export interface Connection {
  /** What this database spells or does its own way (db/driver/dialect.ts). */
  readonly dialect: Dialect;
  prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R>;
  /** Statements without parameters or rows, separated by semicolons. */
  exec(sql: string): Promise<void>;
  /** Run `work` in a transaction (db/driver/transaction.ts); calls from inside the work join it. */
  transaction<T>(work: () => Promise<T>, options?: { immediate?: boolean }): Promise<T>;
  /** Whether this async chain runs inside a transaction of this connection. */
  inTransaction(): boolean;
  /** Close the connection, or end the pool's connections, and wait for it. */
  close(): Promise<void>;
}
