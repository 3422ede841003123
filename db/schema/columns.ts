import { type SQLWrapper, sql } from "drizzle-orm";
import * as pg from "drizzle-orm/pg-core";
import * as sqlite from "drizzle-orm/sqlite-core";
import { isZstdFrame } from "@/db/history/json-deltas";
import { isDictionaryCompressed } from "@/db/history/json-dictionary";

/**
 * The column kinds the schema is described with, in each dialect (docs/decisions/0041). The tables
 * are described once (db/schema/tables.ts) against `ColumnHelpers`, the SQLite set's type, so the
 * SQLite tables keep the exact types the code reads; the PostgreSQL set builds the same tables
 * with PostgreSQL's column types, and db/schema/postgres.ts gives them their types back.
 */

/** A TEXT column that may also hold a blob (SQLite keeps a Buffer bound to it as one): read and written as stored. */
const textOrBlob = <T extends string | Buffer>() =>
  sqlite.customType<{ data: T; driverData: T }>({
    dataType: () => "text",
  });

export const sqliteColumns = {
  table: sqlite.sqliteTable,
  index: sqlite.index,
  uniqueIndex: sqlite.uniqueIndex,
  primaryKey: sqlite.primaryKey,
  /** A key the database assigns, never reused. */
  id: <N extends string>(name: N) => sqlite.integer(name).primaryKey({ autoIncrement: true }),
  /** A key the database assigns when a row gives none (SQLite's rowid: may reuse the highest after a delete). */
  rowId: <N extends string>(name: N) => sqlite.integer(name).primaryKey(),
  integer: <N extends string>(name: N) => sqlite.integer(name),
  boolean: <N extends string>(name: N) => sqlite.integer(name, { mode: "boolean" }),
  text: sqlite.text,
  /** A value kept as JSON, read and written as a value. */
  json: <N extends string>(name: N) => sqlite.text(name, { mode: "json" }),
  /** JSON read and written as its text. */
  jsonText: <N extends string>(name: N) => sqlite.text(name),
  blob: <N extends string>(name: N) => sqlite.blob(name, { mode: "buffer" }),
  /** JSON text, or a binary packed form of it (db/history/packed-json.ts, db/history/json-deltas.ts): the JS type tells which. */
  packed: textOrBlob,
  /** A partial index's condition on a boolean column. */
  isTrue: (column: SQLWrapper) => sql`${column} = 1`,
  /** A foreign key SQLite keeps only because it cannot drop it without rebuilding the table. */
  referenceOnSqlite: <B extends sqlite.SQLiteColumnBuilder>(column: B, ref: () => sqlite.AnySQLiteColumn): B => column.references(ref),
};

export type ColumnHelpers = typeof sqliteColumns;

/** Text compares and sorts by code point, as SQLite's BINARY does, whatever the database's locale. */
const pgText = pg.customType<{ data: string; driverData: string }>({ dataType: () => 'text COLLATE "C"' });

/** node-postgres hands jsonb over parsed: the text written is given back as the value's JSON text. */
const pgJsonText = pg.customType<{ data: string; driverData: unknown }>({
  dataType: () => "jsonb",
  fromDriver: (value) => (typeof value === "string" ? value : JSON.stringify(value)),
});

const pgBytes = pg.customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * bytea keeps no JS type: a packed value is a Buffer when it starts as a dictionary frame or a
 * zstd delta does, else its text (JSON text starts with neither byte). Deflated rows of earlier
 * SQLite archives are not among those forms: a copy to PostgreSQL packs them again first.
 */
export function packedFromBytes(value: Buffer): string | Buffer {
  return isDictionaryCompressed(value) || isZstdFrame(value) ? value : value.toString("utf8");
}

/** A packed value as a raw statement binds and reads it (db/schema/columns.ts). */
export interface PackedValues {
  /** The value as bound: the form the column takes. */
  write<T extends string | Buffer | null>(value: T): T extends string ? string | Buffer : T;
  /** A column read back as it was written. */
  read<T extends string | Buffer | null | undefined>(value: T): T;
  /** A row with these packed columns read back as written. */
  row<T extends object>(row: T, columns: ReadonlyArray<keyof T>): T;
}

/**
 * Packed columns as raw statements bind and read them (each database's `history.packed`). SQLite
 * keeps what it is given; a Buffer read there may be a deflated row of an earlier Redline, which
 * only SQLite archives hold.
 */
export const sqlitePacked: PackedValues = {
  write: (value) => value as never,
  read: (value) => value,
  row: (row) => row,
};

/**
 * On PostgreSQL packed columns are bytea: a value is bound as bytes (text bound to bytea would be
 * read in bytea's escape format) and read back as text unless a dictionary or zstd frame.
 */
export const postgresPacked: PackedValues = {
  write: (value) => (typeof value === "string" ? Buffer.from(value, "utf8") : value) as never,
  read: (value) => (Buffer.isBuffer(value) ? packedFromBytes(value) : value) as typeof value,
  row: (row, columns) => {
    const read = { ...row };
    for (const column of columns) read[column] = postgresPacked.read(row[column] as string | Buffer | null) as (typeof row)[typeof column];
    return read;
  },
};

const pgPacked = <T extends string | Buffer>() =>
  pg.customType<{ data: T; driverData: Buffer }>({
    dataType: () => "bytea",
    toDriver: (value) => (typeof value === "string" ? Buffer.from(value, "utf8") : value),
    fromDriver: (value) => packedFromBytes(value) as T,
  });

/** A 64-bit integer, as every SQLite INTEGER is, read as a JS number (exact below 2^53). */
const pgInteger = <N extends string>(name: N) => pg.bigint(name, { mode: "number" });

/** The same kinds in PostgreSQL; db/schema/postgres.ts is the one place that hands it over as `ColumnHelpers`. */
export const postgresColumns = {
  table: pg.pgTable,
  index: pg.index,
  uniqueIndex: pg.uniqueIndex,
  primaryKey: pg.primaryKey,
  // By default, not always: a copy from another database writes the ids it brings.
  id: <N extends string>(name: N) => pgInteger(name).primaryKey().generatedByDefaultAsIdentity(),
  rowId: <N extends string>(name: N) => pgInteger(name).primaryKey().generatedByDefaultAsIdentity(),
  integer: pgInteger,
  boolean: <N extends string>(name: N) => pg.boolean(name),
  // An enum is a TypeScript constraint only, in both dialects: no CHECK is written for it.
  text: <N extends string>(name: N, _config?: unknown) => pgText(name),
  json: <N extends string>(name: N) => pg.jsonb(name),
  jsonText: <N extends string>(name: N) => pgJsonText(name),
  blob: <N extends string>(name: N) => pgBytes(name),
  packed: pgPacked,
  isTrue: (column: SQLWrapper) => sql`${column}`,
  referenceOnSqlite: <B extends pg.PgColumnBuilder>(column: B): B => column,
} satisfies Record<keyof ColumnHelpers, unknown>;
