import type { RedlineDb } from "@/db/driver/database";
import { quoted, type RowsAndBytes, type StorageStats, type TableStorage, VENDOR_PARTS, VENDOR_TABLES, type VendorPart, type VendorStorage } from "@/db/driver/storage-stats";
import { transact } from "@/db/driver/transaction";

/** A PostgreSQL column's stored length as SQLite's rowLength counts it: bytes of text and bytea, numbers as their digits, booleans as 1/0. */
function postgresColumnLength(alias: string, column: { name: string; type: string }): string {
  const value = `${alias}.${quoted(column.name)}`;
  if (column.type === "bytea") return `coalesce(octet_length(${value}), 0)`;
  if (column.type === "boolean") return `CASE WHEN ${value} IS NULL THEN 0 ELSE 1 END`;
  return `coalesce(octet_length(${value}::text), 0)`;
}

/** pg_table_size, pg_indexes_size and pg_database_size, in one snapshot. */
export async function readPostgresStorageStats(db: RedlineDb): Promise<StorageStats> {
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
