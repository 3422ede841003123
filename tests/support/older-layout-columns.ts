import type Database from "better-sqlite3";
import { registerVersionContentFunction, type VersionContent } from "@/db/history/version-content";

/** How a row of the current layout is written into a file of an older one, column by column (the copies older-layout tests make). */

/** The raw layer's columns of the layouts before raw rows, as SQL over the attached new-layout row `t`. */
const BEFORE_RAW_ROWS: Record<string, Record<string, string>> = {
  capture_bodies: {
    hash: "lower(hex(t.hash))",
    base_hash: "(SELECT lower(hex(p.hash)) FROM src.capture_bodies p WHERE p.id = t.base_id)",
    source: "(SELECT s.url FROM src.sources s WHERE s.id = t.source_id)",
  },
  captures: { body_hash: "CASE WHEN t.body_id IS NULL THEN NULL ELSE t.hash END" },
};

/** The columns a version kept of its own before the version-content migration packed them into its content. */
const CONTENT_COLUMNS: Record<string, keyof VersionContent> = {
  changes: "changes", summary: "summary", headline: "headline", title: "title", impact: "impact", incident_kind: "incidentKind",
};

/** What the file being filled (`main`) predates. */
export interface OlderLayout {
  /** Raw bodies keyed by hex hash, not by id. */
  beforeRawRows: boolean;
  /** A version's changes, texts and title in columns of their own, not in its content. */
  beforeVersionContent: boolean;
}

const hasColumn = (old: Database.Database, table: string, column: string) =>
  old.prepare("SELECT 1 FROM pragma_table_info(?, 'main') WHERE name = ?").get(table, column) !== undefined;

/** The SQL functions copies into an older layout read a version's content with (once per connection, before copying). */
export function registerOlderLayoutFunctions(old: Database.Database): void {
  registerVersionContentFunction(old);
}

/** The layout of the file being filled (`main`). */
export function olderLayoutOf(old: Database.Database): OlderLayout {
  return { beforeRawRows: !hasColumn(old, "capture_bodies", "base_id"), beforeVersionContent: !hasColumn(old, "incident_versions", "content") };
}

/** What to select from src's row `t` of `table` for the column `name` of a file of layout `layout`. */
export function olderLayoutValue(table: string, name: string, layout: OlderLayout): string {
  const raw = layout.beforeRawRows ? BEFORE_RAW_ROWS[table]?.[name] : undefined;
  if (raw !== undefined) return raw;
  const field = layout.beforeVersionContent && table === "incident_versions" ? CONTENT_COLUMNS[name] : undefined;
  return field === undefined ? `t."${name}"` : `redline_version_field(t."content", '${field}')`;
}
