import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/driver/database";
import { quoted, type RowsAndBytes, type StorageStats, type TableStorage, VENDOR_PARTS, VENDOR_TABLES, type VendorPart, type VendorStorage } from "@/db/driver/storage-stats";

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

/** Pages, dbstat and the schema table: SQLite's own measures. */
export async function readSqliteStorageStats(db: RedlineDb): Promise<StorageStats> {
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
