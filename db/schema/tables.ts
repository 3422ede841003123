import { defineArchiveTables } from "@/db/schema/archive-tables";
import type { ColumnHelpers } from "@/db/schema/columns";
import { defineComponentTables } from "@/db/schema/component-tables";
import { defineNotificationTables } from "@/db/schema/notification-tables";
import { defineOperationTables } from "@/db/schema/operation-tables";

/**
 * Redline's tables, described once for both dialects (docs/decisions/0041): db/schema/index.ts builds
 * them for SQLite, db/schema/postgres.ts for PostgreSQL. What a dialect does its own way (SQLite's
 * FTS5 index and its compressed text, PostgreSQL's tsvector tables, the triggers) is in its migrations.
 */
export function defineTables(h: ColumnHelpers) {
  const archive = defineArchiveTables(h);
  return { ...archive, ...defineComponentTables(h, archive), ...defineOperationTables(h, archive), ...defineNotificationTables(h, archive) };
}
