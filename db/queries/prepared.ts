import type Database from "better-sqlite3";
import type { RedlineDb } from "@/db/client";

/**
 * Statements prepared once per connection. Pages run the same few queries on every request;
 * preparing them once keeps a page's database time to the query itself.
 */
export function preparedFor<T>(factory: (sqlite: Database.Database) => T): (db: RedlineDb) => T {
  const cache = new WeakMap<Database.Database, T>();
  return (db) => {
    let statements = cache.get(db.$client);
    if (!statements) {
      statements = factory(db.$client);
      cache.set(db.$client, statements);
    }
    return statements;
  };
}

/** "<observedAt>_<id>": where the next page of a newest-first list starts. */
export interface Cursor {
  at: string;
  id: number;
}

export function encodeCursor(cursor: Cursor): string {
  return `${cursor.at}_${cursor.id}`;
}

export function decodeCursor(value: string): Cursor | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(\d+)$/.exec(value);
  return m?.[1] && m[2] ? { at: m[1], id: Number(m[2]) } : null;
}
