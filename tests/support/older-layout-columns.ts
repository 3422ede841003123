import type Database from "better-sqlite3";

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

/** Whether the file being filled (`main`) keeps raw bodies as the layouts before raw rows did: keyed by hex hash. */
export function isBeforeRawRows(old: Database.Database): boolean {
  return old.prepare("SELECT 1 FROM pragma_table_info('capture_bodies', 'main') WHERE name = 'base_id'").get() === undefined;
}

/** What to select from src's row `t` of `table` for the column `name` of an older layout's file (`beforeRawRows`: isBeforeRawRows of it). */
export function olderLayoutValue(table: string, name: string, beforeRawRows = true): string {
  return (beforeRawRows ? BEFORE_RAW_ROWS[table]?.[name] : undefined) ?? `t."${name}"`;
}
