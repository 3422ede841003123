/**
 * What `readStorageStats` reports, and the tables whose rows belong to one vendor: shared by each
 * database's reading of its sizes (db/sqlite/storage-stats.ts, db/postgres/storage-stats.ts).
 */

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
export const VENDOR_TABLES: Record<VendorPart, { table: string; alias: string; from: string; vendor: string }> = {
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

export function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
