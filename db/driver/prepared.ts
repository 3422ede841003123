import type { Connection, RedlineDb, Statement } from "@/db/driver/database";

/**
 * Statements prepared once per connection, on either database: the data layer's statements. The
 * factory receives the connection; each statement's calls return promises.
 */
export function statementsFor<T>(factory: (connection: Connection) => T): (db: RedlineDb) => T {
  const cache = new WeakMap<Connection, T>();
  return (db) => {
    let statements = cache.get(db.connection);
    if (!statements) {
      statements = factory(db.connection);
      cache.set(db.connection, statements);
    }
    return statements;
  };
}

const shapedStatements = new WeakMap<Connection, Map<string, Statement<unknown[] | object, unknown>>>();

/**
 * A statement for SQL built from a filter: its text differs only by which conditions the filter
 * uses, so each shape is prepared once per connection and reused.
 */
export function statementShaped<P extends unknown[] | object = unknown[], R = unknown>(connection: Connection, sql: string): Statement<P, R> {
  let statements = shapedStatements.get(connection);
  if (!statements) shapedStatements.set(connection, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = connection.prepare(sql)));
  return statement as Statement<P, R>;
}

/** The WHERE conditions of a filtered list, each with its named parameter, added only when set. */
export function conditionsOf() {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  const add = (condition: string, name: string, value: string | number | undefined) => {
    if (value === undefined) return;
    where.push(condition);
    params[name] = value;
  };
  return {
    where,
    params,
    add,
    /** A condition on a list of values, bound as JSON (read by the dialect's `queries.listedValues`); nothing for an empty list. */
    addList: (condition: string, name: string, values: readonly (string | number)[] | undefined) => add(condition, name, values?.length ? JSON.stringify(values) : undefined),
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
