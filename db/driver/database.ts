import type * as schema from "@/db/schema";
import type Database from "better-sqlite3";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { PackedValues } from "@/db/schema/columns";
import type { StorageStats } from "@/db/driver/storage-stats";

/**
 * The statements every data function runs, whichever database holds the archive. SQLite's are
 * better-sqlite3's prepared statements; PostgreSQL's go through node-postgres. Both are
 * asynchronous here, and take and return the same values: parameters by position (`?`) or by
 * name (`@name`), rows with the column names the SQL gives them, integers and booleans as numbers,
 * JSON as text (docs/decisions/0045-one-data-layer-two-databases.md).
 */


/** What a statement without rows reports. `lastInsertRowid` needs `RETURNING id` on PostgreSQL. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

/** A row read through an outer join: every column may be null. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };

type Bound<P> = P extends readonly unknown[] ? P : [P];

export interface Statement<P extends unknown[] | object = unknown[], R = unknown> {
  run(...params: Bound<P>): Promise<RunResult>;
  get(...params: Bound<P>): Promise<R | undefined>;
  all(...params: Bound<P>): Promise<R[]>;
}

export interface Connection {
  /** What this database spells or does its own way (db/driver/database.ts). */
  readonly dialect: Dialect;
  prepare<P extends unknown[] | object = unknown[], R = unknown>(sql: string): Statement<P, R>;
  /** Statements without parameters or rows, separated by semicolons. */
  exec(sql: string): Promise<void>;
  /** Run `work` in a transaction (db/driver/transaction.ts); calls from inside the work join it. */
  transaction<T>(work: () => Promise<T>, options?: { immediate?: boolean }): Promise<T>;
  /** Whether this async chain runs inside a transaction of this connection. */
  inTransaction(): boolean;
  /** Close the connection, or end the pool's connections, and wait for it. */
  close(): Promise<void>;
}

/**
 * An open archive. `connection` runs the data layer's statements on either database. The rest is
 * Drizzle over SQLite, kept while the data layer moves onto `connection`: on PostgreSQL `$client`
 * throws, saying the code reached is SQLite-only (docs/decisions/0045-one-data-layer-two-databases.md).
 */
export type RedlineDb = BetterSQLite3Database<typeof schema> & { $client: Database.Database; readonly connection: Connection };
/** The database or a transaction on it: what query and write functions take. */
export type RedlineExecutor = BaseSQLiteDatabase<"sync", Database.RunResult, typeof schema>;

/**
 * What SQLite and PostgreSQL spell or do differently, each written once per database: db/sqlite/
 * and db/postgres/ implement this interface, and the rest of the data layer asks its connection's
 * dialect instead of naming a database (docs/decisions/0057-dialects-in-one-place.md). A section
 * per concern of db/; a statement both databases take alike is written once where it is used.
 */
export interface Dialect {
  /** The database's name, for tests and logs: code never compares it, it asks the dialect. */
  readonly name: string;
  /** The database as people call it ("SQLite", "PostgreSQL"), for messages. */
  readonly title: string;
  readonly operations: OperationsDialect;
  readonly queries: QueriesDialect;
  readonly history: HistoryDialect;
  readonly record: RecordDialect;
  readonly process: ProcessDialect;
}

/** What the processes around the archive need to know of it: commands, the poller, the web server. */
export interface ProcessDialect {
  /** The folder of its migrations, from the project root. */
  readonly migrationsFolder: string;
  /** Apply the migrations in `folder`, one process at a time; a refused one is thrown as `steps.failed` makes it. */
  applyMigrations(db: RedlineDb, folder: string, steps: MigrationSteps): Promise<void>;
  /** Whether the poller merges the full-text index's segments now and then. */
  readonly tidiesSearchIndex: boolean;
  /** Whether searches run on connections of their own (the database server does the work) rather than on threads beside the web server. */
  readonly searchesOnServer: boolean;
  /** The folder a rebuild's scratch file goes in when none is given. */
  scratchFolder(db: RedlineDb): string;
  /** What the database at `location` is, so that two locations can be told to be one ("file:…", a server's database). */
  identity(location: string, db: RedlineDb): Promise<string>;
}

/** What applying the migrations calls back into (code of db/ the dialects do not import). */
export interface MigrationSteps {
  /** Fill what the migrations leave to JavaScript: the removed words of versions recorded before the version search. */
  fillVersionSearch(db: RedlineDb): void;
  /** The error a refused migration is reported as. */
  failed(error: unknown): Error;
}

/** db/operations/: copy, backup, retention, leases, jobs, hooks, readiness. */
export interface OperationsDialect {
  /** A value (a parameter, `@name` or `?`) given the type a statement does not show the database otherwise. */
  typed(value: string, type: "bigint" | "text"): string;
  /** The larger of two values. */
  greatest(left: string, right: string): string;
  /** A boolean column's test. */
  isTrue(column: string): string;
  /** The comparison that holds when two values differ, a null differing from a value. */
  readonly isDistinctFrom: string;
  /** The ids of a JSON list bound as `@name`, as a subquery. */
  listedIds(name: string): string;
  /** What a claiming SELECT ends with, so claims running side by side skip each other's rows (of `table`, an alias, when it joins). */
  skipLocked(table?: string): string;
  /** Whether a claim's pick and lease are made one by taking the write lock first (an immediate transaction), not by the rows it locks. */
  readonly claimsTakeWriteLock: boolean;
  /** Written after `FROM captures l` to find a source's latest capture by the captures_identity index. */
  readonly capturesByIdentity: string;
  /** Make a vendor due at a time (parameters: vendor id, time) unless it is due sooner. */
  readonly requestPoll: string;
  /** Add to a scope's throttle count (parameters: scope, count, time), keeping its latest throttle time. */
  readonly addThrottled: string;
  /** Give every enabled vendor with a URL and no poll_state row one, due at the time bound to `?`. */
  readonly schedulePolls: string;
  /** Copying an archive from one database to another (db/operations/copy.ts). */
  readonly copy: CopyDialect;
  /** A connection of its own to the database at `location`, quick to give up, counting the migrations applied (readiness checks). */
  migrationCounter(location: string): MigrationCounter;
  /** Opens an archive file, read-only, for a backup or a restore; where Redline makes no file backups of the database, what it is and how it is backed up instead. */
  readonly fileBackup: ((file: string) => ArchiveFile) | string;
}

/** An archive file opened read-only by a backup or a restore. */
export interface ArchiveFile {
  /** Copy it into `file` (a new file, or the archive a restore replaces, under its write lock) as one snapshot, while writers go on; the pages copied. */
  copyTo(file: string): Promise<number>;
  /** The database's own check of the file: "ok" when it is intact. */
  integrity(): string;
  /** Whether it holds Redline's tables. */
  isRedline(): boolean;
  countVersions(): number;
  close(): void;
}

export interface MigrationCounter {
  /** How many migrations the database has applied; throws when it does not answer (the next count connects again). */
  count(): Promise<number>;
  close(): void;
}

/** What a copy between databases reads and writes each database's own way. */
export interface CopyDialect {
  /** Run first in the source's transaction so the whole copy reads one snapshot (null: its transaction reads one already). */
  readonly snapshot: string | null;
  /** The database's tables and their columns (tableName, columnName), computed columns left out. */
  readonly listColumns: string;
  /** Tables the database holds that are not copied as rows: its own bookkeeping and index tables. */
  readonly notCopied: ReadonlySet<string>;
  /** The search tables, kept differently by each database: the same names on each, the rows converted between them. */
  readonly searchTables: readonly SearchTableCopy[];
  /** A packed JSON value read from another database as this one's column takes it; `repack` turns another database's blob into bytes read alike. */
  packedValue(value: string | Buffer, repack: (bytes: Buffer) => Buffer): string | Buffer;
  /** A table's key counter where it outruns the largest key (keys given once, then deleted); 0 when none is kept. */
  readKeyCounter(connection: Connection, table: string, column: string, autoIncrement: boolean): Promise<number>;
  /** Raise a table's key counter to `mark`, so the next insert takes a key above it. */
  raiseKeyCounter(connection: Connection, table: string, column: string, mark: number, autoIncrement: boolean): Promise<void>;
}

/** A search table as a copy reads and writes it. */
export interface SearchTableCopy {
  /** The same on every database: what a copy pairs the tables by. */
  readonly name: string;
  readonly table: string;
  readonly key: string;
  /** The key first; the rows travel as these columns in this order. */
  readonly columns: readonly string[];
  /** Whether a batch may be written with ON CONFLICT DO NOTHING (a full-text table takes none). */
  readonly conflictClause: boolean;
  /** The incident's text packed in one column (packSearchText) rather than in a column per part. */
  readonly packedText: boolean;
}

/** db/queries/ and db/search/: read queries and the full-text index. */
export interface QueriesDialect {
  /** The values of a JSON list bound as `@name` (conditionsOf's addList), as a subquery; `bigint` reads them back as numbers. */
  listedValues(name: string, type?: "text" | "bigint"): string;
  /** The ids of a JSON list bound to a statement's positional parameter (`?`), as a subquery. */
  readonly idsInParameter: string;
  /** `left = right`, with names compared ignoring case. */
  equalsIgnoringCase(left: string, right: string): string;
  /** `column IN` the JSON list bound as `@name`, with names compared ignoring case. */
  inListIgnoringCase(column: string, name: string): string;
  /** An ORDER BY term sorting names ignoring case. */
  orderIgnoringCase(expression: string): string;
  /** An aggregate counting the rows of a group where a condition holds. */
  countWhere(condition: string): string;
  /** Written after a text parameter whose type a statement does not show (one first met in `IS NULL`). */
  readonly textParameterCast: string;
  /** Written after `DESC` so rows without a value come last. */
  readonly nullsLast: string;
  /** Written after a FROM table (with a trailing space) to read it by that index where the planner could miss it. */
  indexedBy(index: string): string;
  /** The join keyword that keeps the table on its left the outer loop, so a page walks that table's index in order. */
  readonly orderedJoin: string;
  /** An observation time (text) in milliseconds, as version_kinds keeps it. */
  observedMs(expression: string): string;
  /** The full-text search of incidents. */
  readonly search: SearchDialect;
  /** Where the database's bytes are: per table, per vendor, and against the raw bytes its captures were given. */
  readStorageStats(db: RedlineDb): Promise<StorageStats>;
}

/** The full-text search: the `@query` parameter and the statements reading the search indexes. */
export interface SearchDialect {
  /** The value bound as `@query` for a query `toFtsQuery` made. */
  parameter(ftsQuery: string): string;
  /** The ids of the incidents whose current text matches `@query`, as a subquery. */
  readonly matchedIncidentIds: string;
  /**
   * The search statements, given the vendor and period conditions on a matched incident's id:
   * `page` and `count` the current matches, `earlier` the incidents whose words only an edit took away.
   */
  statements(incidentFilter: (id: string) => string): { page: string; count: string; earlier: string };
}

/** db/history/, db/settings/, db/notifications/. */
export interface HistoryDialect {
  /** SQL giving a 32-byte hash column as lowercase hex, as hashes travel outside the database. */
  hexOf(column: string): string;
  /** SQL giving the bytes of a hex text (a parameter), to match a hash column with. */
  unhex(param: string): string;
  /** Packed JSON columns (db/history/packed-json.ts) bound and read by raw statements. */
  readonly packed: PackedValues;
  /** Rows of a read that may be large (a vendor's history), streamed where the database can. */
  iterateRows(db: RedlineDb, sql: string, params: unknown[]): Promise<Iterable<Record<string, unknown>>>;
  /** The archive's search entry table when a rebuild's scratch has it alike, to copy; null: the swap writes them again. */
  readonly scratchSearchTable: string | null;
  /** SQL sorting by a column ascending, nulls first. */
  nullsFirst(column: string): string;
}


/** db/record/: the statements a capture's record writes and reads. */
export interface RecordDialect {
  /** Written after a table in FROM to read it by this index (where the planner would otherwise pick another). */
  indexedBy(index: string): string;
  /** The smaller of two values. */
  least(left: string, right: string): string;
  /** Write incidents' full-text entries, replacing those they had (a row's values: incident id, title, updates, postmortem). */
  readonly searchEntries: RowsStatement;
  /** Keep the text versions took away, for searches of earlier versions (a row's values: version id, text). */
  readonly removedTexts: RowsStatement;
}

/**
 * An INSERT of many rows (db/driver/batch.ts writes them, a few statements for any number):
 * its head, one row's values, and what follows the rows. Each `?` of `row` is one value of the row.
 */
export interface RowsStatement {
  /** "INSERT INTO table (columns…)". */
  readonly into: string;
  /** "(?, ?, …)": one row, each value a `?` or an expression of it. */
  readonly row: string;
  /** What follows the rows: ON CONFLICT …, RETURNING … (rows are returned only when it has RETURNING). */
  readonly tail?: string;
}
