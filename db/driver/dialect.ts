/**
 * What SQLite and PostgreSQL spell or do differently, each written once per database: db/sqlite/
 * and db/postgres/ implement this interface, and the rest of the data layer asks its connection's
 * dialect instead of naming a database (docs/decisions/0057-dialects-in-one-place.md). A section
 * per concern of db/; a statement both databases take alike is written once where it is used.
 */
/** Which database (being retired from code outside db/sqlite and db/postgres). */
export type DatabaseName = "sqlite" | "postgres";

export interface Dialect {
  /** The database's name, for tests and logs: code never compares it, it asks the dialect. */
  readonly name: DatabaseName;
  /** The database as people call it ("SQLite", "PostgreSQL"), for messages. */
  readonly title: string;
  readonly operations: OperationsDialect;
  readonly queries: QueriesDialect;
  readonly history: HistoryDialect;
  readonly record: RecordDialect;
}

/** db/operations/: copy, backup, retention, leases, jobs, hooks, readiness. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as its SQL moves here
export interface OperationsDialect {}

/** db/queries/ and db/search/: read queries and the full-text index. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as its SQL moves here
export interface QueriesDialect {}

/** db/history/, db/settings/, db/notifications/. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as its SQL moves here
export interface HistoryDialect {}

/** db/record/ and db/driver/. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as its SQL moves here
export interface RecordDialect {}
