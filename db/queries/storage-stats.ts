import type { RedlineDb } from "@/db/driver/database";
import type { StorageStats } from "@/db/driver/storage-stats";

export { type RowsAndBytes, type StorageStats, type TableStorage, VENDOR_PARTS, type VendorPart, type VendorStorage } from "@/db/driver/storage-stats";

/**
 * Where a database's bytes are: per table (the database's own measure of its tables and indexes), per vendor (its
 * rows' stored lengths, and its share of each table on disk), and against the raw bytes its captures were given.
 */
export async function readStorageStats(db: RedlineDb): Promise<StorageStats> {
  return db.connection.dialect.queries.readStorageStats(db);
}
