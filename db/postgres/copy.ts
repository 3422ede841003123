import type { Connection, CopyDialect } from "@/db/driver/database";
import { statementShaped } from "@/db/driver/prepared";

/**
 * PostgreSQL's side of a copy: the incident's text in plain columns beside generated tsvectors,
 * packed JSON as bytea, key counters in each identity column's sequence.
 */
export const postgresCopy: CopyDialect = {
  // A pooled connection's transaction would otherwise see what commits while the copy reads.
  snapshot: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY",
  listColumns: `SELECT table_name AS tableName, column_name AS columnName FROM information_schema.columns
           WHERE table_schema = current_schema() AND is_generated = 'NEVER' ORDER BY table_name, ordinal_position`,
  notCopied: new Set(["__drizzle_migrations"]),
  searchTables: [
    { name: "incident search text", table: "incident_search", key: "incident_id", columns: ["incident_id", "title", "updates", "postmortem"], conflictClause: true, packedText: false },
    { name: "version search text", table: "version_search", key: "version_id", columns: ["version_id", "removed"], conflictClause: true, packedText: false },
  ],
  packedValue: (value, repack) => (typeof value === "string" ? Buffer.from(value, "utf8") : repack(value)),
  async readKeyCounter(connection: Connection, table: string, column: string): Promise<number> {
    const row = await statementShaped<[string, string], { v: number | null }>(connection, "SELECT pg_sequence_last_value(pg_get_serial_sequence(?, ?)::regclass) AS v").get(table, column);
    return Number(row?.v ?? 0);
  },
  async raiseKeyCounter(connection: Connection, table: string, column: string, mark: number): Promise<void> {
    await statementShaped(connection, "SELECT setval(pg_get_serial_sequence(?, ?)::regclass, greatest(?::bigint, 1))").get(table, column, mark);
  },
};
