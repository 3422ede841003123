import type { Connection, CopyDialect } from "@/db/driver/database";
import { statementShaped } from "@/db/driver/prepared";
import { packedFromBytes } from "@/db/schema/columns";

/**
 * SQLite's side of a copy: the incident's text compressed in one column (its FTS5 index kept by
 * triggers) and an FTS5 table of removed text keyed by rowid; key counters in sqlite_sequence.
 */
export const sqliteCopy: CopyDialect = {
  // One connection, one transaction: it reads one snapshot throughout.
  snapshot: null,
  listColumns: `SELECT m.name AS tableName, p.name AS columnName FROM sqlite_master m, pragma_table_info(m.name) p
           WHERE m.type = 'table' ORDER BY m.name, p.cid`,
  // The migration bookkeeping, the sequence table (carried as key counters), the statistics, and the
  // FTS5 index's shadow tables (its triggers fill the index from incident_search_text; version_search is FTS5 itself).
  notCopied: new Set([
    "__drizzle_migrations",
    "sqlite_sequence",
    "sqlite_stat1",
    "sqlite_stat4",
    "incident_search",
    ...["config", "data", "docsize", "idx"].map((s) => `incident_search_${s}`),
    ...["config", "content", "data", "docsize", "idx"].map((s) => `version_search_${s}`),
  ]),
  searchTables: [
    { name: "incident search text", table: "incident_search_text", key: "incident_id", columns: ["incident_id", "body"], conflictClause: true, packedText: true },
    // FTS5 tables take no ON CONFLICT: a batch is written whole or not at all, and a resumed copy starts after the last.
    { name: "version search text", table: "version_search", key: "rowid", columns: ["rowid", "removed"], conflictClause: false, packedText: false },
  ],
  packedValue: (value) => (Buffer.isBuffer(value) ? packedFromBytes(value) : value),
  async readKeyCounter(connection: Connection, table: string, _column: string, autoIncrement: boolean): Promise<number> {
    if (!autoIncrement) return 0;
    const row = await statementShaped<[string], { seq: number }>(connection, "SELECT seq FROM sqlite_sequence WHERE name = ?").get(table);
    return Number(row?.seq ?? 0);
  },
  async raiseKeyCounter(connection: Connection, table: string, _column: string, mark: number, autoIncrement: boolean): Promise<void> {
    if (!autoIncrement) return;
    const updated = await statementShaped(connection, "UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?").run(mark, table);
    if (updated.changes === 0) await statementShaped(connection, "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)").run(table, mark);
  },
};
