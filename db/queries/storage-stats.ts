import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/driver/database";
import { transact } from "@/db/driver/transaction";

/**
 * One table with its indexes, as SQLite's dbstat measures them (a full-text table with its shadow
 * tables), or PostgreSQL's pg_table_size (TOAST included) and pg_indexes_size.
 */
export interface TableStorage {
  name: string;
  rows: number;
  tableBytes: number;
  indexBytes: number;
}

export interface RowsAndBytes {
  rows: number;
  /** The stored lengths of the rows' columns: text and blob bytes, numbers as their digits. */
  bytes: number;
}

export const VENDOR_PARTS = ["captures", "rawBodies", "incidents", "versions", "states"] as const;
export type VendorPart = (typeof VENDOR_PARTS)[number];

export interface VendorStorage {
  slug: string;
  parts: Record<VendorPart, RowsAndBytes>;
  /** Its share of those tables on disk (indexes included), by its share of their stored lengths. */
  approxDiskBytes: number;
  /** The sizes of all its captures' bodies as fetched or imported. */
  rawBytes: number;
}

export interface StorageStats {
  pageSize: number;
  /**
   * SQLite: page_count × page_size, including what the WAL has not checkpointed yet.
   * PostgreSQL: pg_database_size, the database's files (its catalogs too).
   */
  databaseBytes: number;
  /** SQLite: the free pages. PostgreSQL: what no archive table holds (catalogs, free space its maps track). */
  freeBytes: number;
  tables: TableStorage[];
  vendors: VendorStorage[];
  /** Raw bodies no capture refers to any more (left by a removed vendor). */
  unreferencedBodies: RowsAndBytes;
  /** The sum of every capture's size: the bytes Redline was given. */
  rawBytes: number;
  /** databaseBytes / rawBytes (0 when nothing was recorded). */
  ratio: number;
  /** Captures whose raw body retention removed, and their sizes: part of rawBytes, no longer stored. */
  prunedRaw: { captures: number; bytes: number };
}

/** The tables whose rows belong to one vendor, and how a row finds its vendor. */
const VENDOR_TABLES: Record<VendorPart, { table: string; alias: string; from: string; vendor: string }> = {
  captures: { table: "captures", alias: "t", from: "captures t", vendor: "t.vendor_id" },
  rawBodies: {
    table: "capture_bodies",
    alias: "t",
    // A body shared by two vendors' captures counts for each.
    from: "capture_bodies t JOIN (SELECT DISTINCT vendor_id, body_id FROM captures WHERE body_id IS NOT NULL) c ON c.body_id = t.id",
    vendor: "c.vendor_id",
  },
  incidents: { table: "incidents", alias: "t", from: "incidents t", vendor: "t.vendor_id" },
  versions: { table: "incident_versions", alias: "t", from: "incident_versions t", vendor: "t.vendor_id" },
  states: { table: "incident_states", alias: "t", from: "incident_states t JOIN incidents i ON i.id = t.incident_id", vendor: "i.vendor_id" },
};

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** An SQL expression for the stored length of a row's columns. */
function rowLength(sqlite: Database.Database, table: string, alias: string): string {
  const columns = sqlite.prepare<[string], { name: string }>("SELECT name FROM pragma_table_info(?)").all(table);
  return columns.map((c) => `coalesce(length(CAST(${alias}.${quoted(c.name)} AS BLOB)), 0)`).join(" + ") || "0";
}

function readTables(sqlite: Database.Database): TableStorage[] {
  const schema = sqlite.prepare<[], { type: string; name: string; tblName: string; sql: string | null }>(
    "SELECT type, name, tbl_name AS tblName, sql FROM sqlite_schema",
  ).all();
  const virtual = schema.filter((s) => s.type === "table" && /^CREATE VIRTUAL TABLE/i.test(s.sql ?? "")).map((s) => s.name);
  const ownerOf = new Map<string, { table: string; isIndex: boolean }>([["sqlite_schema", { table: "sqlite_schema", isIndex: false }]]);
  for (const s of schema) {
    if (s.type === "index") ownerOf.set(s.name, { table: s.tblName, isIndex: true });
    else if (s.type === "table") ownerOf.set(s.name, { table: virtual.find((v) => s.name.startsWith(`${v}_`)) ?? s.name, isIndex: false });
  }
  const tables = new Map<string, TableStorage>();
  const entry = (name: string) => {
    let t = tables.get(name);
    if (!t) tables.set(name, (t = { name, rows: 0, tableBytes: 0, indexBytes: 0 }));
    return t;
  };
  for (const s of schema) if (s.type === "table" && !s.name.startsWith("sqlite_")) entry(ownerOf.get(s.name)?.table ?? s.name);
  for (const { name, bytes } of sqlite.prepare<[], { name: string; bytes: number }>("SELECT name, pgsize AS bytes FROM dbstat WHERE aggregate = 1").all()) {
    const owner = ownerOf.get(name) ?? { table: name, isIndex: false };
    const t = entry(owner.table);
    if (owner.isIndex) t.indexBytes += bytes;
    else t.tableBytes += bytes;
  }
  for (const t of tables.values()) {
    if (t.name === "sqlite_schema") t.rows = schema.length;
    else t.rows = sqlite.prepare<[], { n: number }>(`SELECT count(*) AS n FROM ${quoted(t.name)}`).get()?.n ?? 0;
  }
  return [...tables.values()].sort((a, b) => b.tableBytes + b.indexBytes - (a.tableBytes + a.indexBytes) || a.name.localeCompare(b.name));
}

function readVendors(sqlite: Database.Database, tables: readonly TableStorage[]): { vendors: VendorStorage[]; unreferencedBodies: RowsAndBytes } {
  const vendors = new Map<number, VendorStorage>();
  for (const v of sqlite.prepare<[], { id: number; slug: string }>("SELECT id, slug FROM vendors ORDER BY slug").all()) {
    const parts = Object.fromEntries(VENDOR_PARTS.map((p) => [p, { rows: 0, bytes: 0 }])) as Record<VendorPart, RowsAndBytes>;
    vendors.set(v.id, { slug: v.slug, parts, approxDiskBytes: 0, rawBytes: 0 });
  }
  for (const part of VENDOR_PARTS) {
    const { table, alias, from, vendor } = VENDOR_TABLES[part];
    const length = rowLength(sqlite, table, alias);
    const rows = sqlite.prepare<[], { vendorId: number; rows: number; bytes: number }>(
      `SELECT ${vendor} AS vendorId, count(*) AS rows, coalesce(sum(${length}), 0) AS bytes FROM ${from} GROUP BY ${vendor}`,
    ).all();
    const total = sqlite.prepare<[], { bytes: number }>(`SELECT coalesce(sum(${length}), 0) AS bytes FROM ${table} ${alias}`).get()?.bytes ?? 0;
    const onDisk = tables.find((t) => t.name === table);
    const diskBytes = onDisk ? onDisk.tableBytes + onDisk.indexBytes : 0;
    for (const r of rows) {
      const v = vendors.get(r.vendorId);
      if (!v) continue;
      v.parts[part] = { rows: r.rows, bytes: r.bytes };
      if (total > 0) v.approxDiskBytes += Math.round((diskBytes * r.bytes) / total);
    }
  }
  for (const r of sqlite.prepare<[], { vendorId: number; raw: number }>("SELECT vendor_id AS vendorId, coalesce(sum(size), 0) AS raw FROM captures GROUP BY vendor_id").all()) {
    const v = vendors.get(r.vendorId);
    if (v) v.rawBytes = r.raw;
  }
  const unreferencedBodies = sqlite.prepare<[], RowsAndBytes>(
    `SELECT count(*) AS rows, coalesce(sum(${rowLength(sqlite, "capture_bodies", "b")}), 0) AS bytes FROM capture_bodies b
     WHERE NOT EXISTS (SELECT 1 FROM captures c WHERE c.body_id = b.id)`,
  ).get() ?? { rows: 0, bytes: 0 };
  return { vendors: [...vendors.values()].sort((a, b) => b.approxDiskBytes - a.approxDiskBytes || a.slug.localeCompare(b.slug)), unreferencedBodies };
}

/**
 * Where a database's bytes are: per table (dbstat or PostgreSQL's relation sizes), per vendor (its
 * rows' stored lengths, and its share of each table on disk), and against the raw bytes its captures were given.
 */
export async function readStorageStats(db: RedlineDb): Promise<StorageStats> {
  if (db.connection.dialect.name === "postgres") return readPostgresStorageStats(db);
  // Pages, dbstat and the schema table are SQLite's own; PostgreSQL's figures are read above.
  const sqlite = db.$client;
  // One read transaction, so every figure is of the same state while a poller keeps writing.
  return sqlite.transaction(() => {
    const pageSize = Number(sqlite.pragma("page_size", { simple: true }));
    const databaseBytes = pageSize * Number(sqlite.pragma("page_count", { simple: true }));
    const freeBytes = pageSize * Number(sqlite.pragma("freelist_count", { simple: true }));
    const tables = readTables(sqlite);
    const { vendors, unreferencedBodies } = readVendors(sqlite, tables);
    const rawBytes = sqlite.prepare<[], { raw: number }>("SELECT coalesce(sum(size), 0) AS raw FROM captures").get()?.raw ?? 0;
    const prunedRaw = sqlite
      .prepare<[], { captures: number; bytes: number }>("SELECT count(*) AS captures, coalesce(sum(size), 0) AS bytes FROM captures WHERE body_pruned_at IS NOT NULL")
      .get() ?? { captures: 0, bytes: 0 };
    return { pageSize, databaseBytes, freeBytes, tables, vendors, unreferencedBodies, rawBytes, ratio: rawBytes > 0 ? databaseBytes / rawBytes : 0, prunedRaw };
  })();
}

/** A PostgreSQL column's stored length as SQLite's rowLength counts it: bytes of text and bytea, numbers as their digits, booleans as 1/0. */
function postgresColumnLength(alias: string, column: { name: string; type: string }): string {
  const value = `${alias}.${quoted(column.name)}`;
  if (column.type === "bytea") return `coalesce(octet_length(${value}), 0)`;
  if (column.type === "boolean") return `CASE WHEN ${value} IS NULL THEN 0 ELSE 1 END`;
  return `coalesce(octet_length(${value}::text), 0)`;
}

async function readPostgresStorageStats(db: RedlineDb): Promise<StorageStats> {
  const connection = db.connection;
  const columns = await connection
    .prepare<[], { tableName: string; name: string; type: string }>(
      `SELECT table_name AS tableName, column_name AS name, data_type AS type FROM information_schema.columns
       WHERE table_schema = current_schema() AND is_generated = 'NEVER' ORDER BY table_name, ordinal_position`,
    )
    .all();
  const rowLength = (table: string, alias: string) =>
    columns.filter((c) => c.tableName === table).map((c) => postgresColumnLength(alias, c)).join(" + ") || "0";
  const one = async <R>(sql: string) => (await connection.prepare<[], R>(sql).get()) as R;
  // One snapshot for every figure, as SQLite's read transaction gives, while a poller keeps writing.
  return transact(db, async () => {
    await connection.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { pageSize, databaseBytes } = await one<{ pageSize: number; databaseBytes: number }>(
      "SELECT current_setting('block_size')::bigint AS pageSize, pg_database_size(current_database()) AS databaseBytes",
    );
    const sized = await connection
      .prepare<[], { name: string; tableBytes: number; indexBytes: number }>(
        `SELECT c.relname AS name, pg_table_size(c.oid) AS tableBytes, pg_indexes_size(c.oid) AS indexBytes FROM pg_class c
         WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')`,
      )
      .all();
    const tables: TableStorage[] = [];
    for (const t of sized) tables.push({ ...t, rows: (await one<{ n: number }>(`SELECT count(*) AS n FROM ${quoted(t.name)}`)).n });
    tables.sort((a, b) => b.tableBytes + b.indexBytes - (a.tableBytes + a.indexBytes) || a.name.localeCompare(b.name));
    const vendors = new Map<number, VendorStorage>();
    for (const v of await connection.prepare<[], { id: number; slug: string }>("SELECT id, slug FROM vendors ORDER BY slug").all()) {
      const parts = Object.fromEntries(VENDOR_PARTS.map((p) => [p, { rows: 0, bytes: 0 }])) as Record<VendorPart, RowsAndBytes>;
      vendors.set(v.id, { slug: v.slug, parts, approxDiskBytes: 0, rawBytes: 0 });
    }
    for (const part of VENDOR_PARTS) {
      const { table, alias, from, vendor } = VENDOR_TABLES[part];
      const length = rowLength(table, alias);
      const rows = await connection
        .prepare<[], { vendorId: number; rows: number; bytes: number }>(
          `SELECT ${vendor} AS vendorId, count(*) AS rows, coalesce(sum(${length}), 0) AS bytes FROM ${from} GROUP BY ${vendor}`,
        )
        .all();
      const total = (await one<{ bytes: number }>(`SELECT coalesce(sum(${length}), 0) AS bytes FROM ${table} ${alias}`)).bytes;
      const onDisk = tables.find((t) => t.name === table);
      const diskBytes = onDisk ? onDisk.tableBytes + onDisk.indexBytes : 0;
      for (const r of rows) {
        const v = vendors.get(r.vendorId);
        if (!v) continue;
        v.parts[part] = { rows: r.rows, bytes: r.bytes };
        if (total > 0) v.approxDiskBytes += Math.round((diskBytes * r.bytes) / total);
      }
    }
    for (const r of await connection.prepare<[], { vendorId: number; raw: number }>("SELECT vendor_id AS vendorId, coalesce(sum(size), 0) AS raw FROM captures GROUP BY vendor_id").all()) {
      const v = vendors.get(r.vendorId);
      if (v) v.rawBytes = r.raw;
    }
    const unreferencedBodies = await one<RowsAndBytes>(
      `SELECT count(*) AS rows, coalesce(sum(${rowLength("capture_bodies", "b")}), 0) AS bytes FROM capture_bodies b
       WHERE NOT EXISTS (SELECT 1 FROM captures c WHERE c.body_id = b.id)`,
    );
    const rawBytes = (await one<{ raw: number }>("SELECT coalesce(sum(size), 0) AS raw FROM captures")).raw;
    const prunedRaw = await one<{ captures: number; bytes: number }>(
      "SELECT count(*) AS captures, coalesce(sum(size), 0) AS bytes FROM captures WHERE body_pruned_at IS NOT NULL",
    );
    const counted = tables.reduce((n, t) => n + t.tableBytes + t.indexBytes, 0);
    return {
      pageSize,
      databaseBytes,
      freeBytes: Math.max(0, databaseBytes - counted),
      tables,
      vendors: [...vendors.values()].sort((a, b) => b.approxDiskBytes - a.approxDiskBytes || a.slug.localeCompare(b.slug)),
      unreferencedBodies,
      rawBytes,
      ratio: rawBytes > 0 ? databaseBytes / rawBytes : 0,
      prunedRaw,
    };
  });
}
