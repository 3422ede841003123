import type { QueriesDialect } from "@/db/driver/database";
import { sqliteSearch } from "@/db/sqlite/search";
import { readSqliteStorageStats } from "@/db/sqlite/storage-stats";

/** SQLite's side of QueriesDialect. */
export const sqliteQueries: QueriesDialect = {
  listedValues: (name) => `SELECT value FROM json_each(@${name})`,
  idsInParameter: "SELECT value FROM json_each(?)",
  equalsIgnoringCase: (left, right) => `${left} = ${right} COLLATE NOCASE`,
  inListIgnoringCase: (column, name) => `${column} COLLATE NOCASE IN (SELECT value FROM json_each(@${name}))`,
  orderIgnoringCase: (expression) => `${expression} COLLATE NOCASE`,
  countWhere: (condition) => `sum(${condition})`,
  textParameterCast: "",
  // NULLs already sort last in a descending order.
  nullsLast: "",
  // Without statistics SQLite may pick a wider index (scanning every listed incident for the few unresolved ones).
  indexedBy: (index) => `INDEXED BY ${index} `,
  // CROSS JOIN keeps the left table the outer loop, so a page never sorts the archive.
  orderedJoin: "CROSS JOIN",
  observedMs: (expression) => `CAST(round(unixepoch(${expression}, 'subsec') * 1000) AS INTEGER)`,
  search: sqliteSearch,
  readStorageStats: readSqliteStorageStats,
};
