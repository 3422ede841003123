import { getTableConfig as getPgTableConfig, type PgColumn } from "drizzle-orm/pg-core";
import { getTableConfig as getSqliteTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { sqliteColumns } from "@/db/schema/columns";
import * as postgresTables from "@/db/schema/postgres";
import { defineTables } from "@/db/schema/tables";

/** A table as both databases' descriptions of the schema have it, for code that treats every table alike (a copy between databases). */
export interface TableDescription {
  name: string;
  /** In the table's order; `packed`: packed JSON, which each database keeps its own way. */
  columns: Array<{ name: string; packed: boolean }>;
  /** The primary key's columns. */
  key: string[];
  /** The key is one integer the database assigns (SQLite AUTOINCREMENT or rowid; PostgreSQL identity). */
  assignedKey: boolean;
  /** SQLite keeps its highest key in sqlite_sequence (AUTOINCREMENT: ids never reused). */
  autoIncrement: boolean;
  /** The other tables its foreign keys name. */
  references: string[];
}

/** Every table of the schema, in the order the schema defines them; throws when the two descriptions disagree. */
export function describeTables(): TableDescription[] {
  const sqliteTables = defineTables(sqliteColumns) as Record<string, SQLiteTable>;
  const pgTables = postgresTables as unknown as Record<string, unknown>;
  return Object.entries(sqliteTables).map(([property, table]) => {
    const config = getSqliteTableConfig(table);
    const pgTable = pgTables[property];
    if (pgTable === undefined) throw new Error(`the table ${config.name} has no PostgreSQL description`);
    const pgColumns = new Map(getPgTableConfig(pgTable as never).columns.map((c: PgColumn) => [c.name, c]));
    const columns = config.columns.map((c: SQLiteColumn) => {
      const pgColumn = pgColumns.get(c.name);
      if (!pgColumn) throw new Error(`${config.name}.${c.name} has no PostgreSQL column`);
      return { name: c.name, packed: c.columnType === "SQLiteCustomColumn" };
    });
    const single = config.columns.filter((c) => c.primary);
    const composite = config.primaryKeys[0]?.columns ?? [];
    const key = single.length > 0 ? single.map((c) => c.name) : composite.map((c) => c.name);
    if (key.length === 0) throw new Error(`the table ${config.name} has no primary key to copy it by`);
    const keyColumn = single.length === 1 ? single[0] : undefined;
    const pgKey = keyColumn ? pgColumns.get(keyColumn.name) : undefined;
    return {
      name: config.name,
      columns,
      key,
      assignedKey: pgKey !== undefined && (pgKey as unknown as { generatedIdentity?: unknown }).generatedIdentity !== undefined,
      autoIncrement: (keyColumn as { autoIncrement?: boolean } | undefined)?.autoIncrement === true,
      references: config.foreignKeys.map((fk) => getSqliteTableConfig(fk.reference().foreignTable).name).filter((name) => name !== config.name),
    };
  });
}
