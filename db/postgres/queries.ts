import type { QueriesDialect } from "@/db/driver/database";
import { postgresSearch } from "@/db/postgres/search";
import { readPostgresStorageStats } from "@/db/postgres/storage-stats";

/** PostgreSQL's side of QueriesDialect. */
export const postgresQueries: QueriesDialect = {
  // jsonb gives its elements as text: numbers are cast back.
  listedValues: (name, type = "text") => `SELECT value${type === "bigint" ? "::bigint" : ""} FROM jsonb_array_elements_text(@${name}::jsonb)`,
  idsInParameter: "SELECT value::bigint FROM jsonb_array_elements_text(?::jsonb)",
  equalsIgnoringCase: (left, right) => `redline_nocase(${left}) = redline_nocase(${right})`,
  inListIgnoringCase: (column, name) => `redline_nocase(${column}) IN (SELECT redline_nocase(value) FROM jsonb_array_elements_text(@${name}::jsonb))`,
  orderIgnoringCase: (expression) => `redline_nocase(${expression})`,
  countWhere: (condition) => `count(*) FILTER (WHERE ${condition})`,
  // A parameter first met in `IS NULL` has no type PostgreSQL can infer.
  textParameterCast: "::text",
  // NULLs sort first in a descending order.
  nullsLast: " NULLS LAST",
  indexedBy: () => "",
  // No CROSS JOIN … ON; the planner walks the same index for a LIMIT.
  orderedJoin: "JOIN",
  observedMs: (expression) => `round(extract(epoch FROM (${expression})::timestamptz) * 1000)::bigint`,
  search: postgresSearch,
  readStorageStats: readPostgresStorageStats,
};
