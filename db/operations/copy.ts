import { isDeepStrictEqual } from "node:util";
import type { Connection, CopyDialect, RedlineDb, SearchTableCopy } from "@/db/driver/database";
import { isZstdFrame } from "@/db/history/json-deltas";
import { isDictionaryCompressed } from "@/db/history/json-dictionary";
import { packJson, unpackJson } from "@/db/history/packed-json";
import { statementShaped } from "@/db/driver/prepared";
import { packedFromBytes } from "@/db/schema/columns";
import { describeTables, type TableDescription } from "@/db/schema/table-descriptions";
import { packSearchText, unpackSearchText } from "@/db/search/search-text";
import { transact } from "@/db/driver/transaction";

/**
 * Copy a whole archive from one database to another, SQLite or PostgreSQL either way
 * (docs/decisions/0046-copying-between-databases.md). The tables come from the schema's description
 * (db/schema/tables.ts), in foreign-key order, each read by its primary key a batch at a time and
 * each batch written in one transaction on the target: a copy that stops resumes after the
 * target's last key of each table. The search tables, which the dialects keep differently, are
 * converted; the archive's revision and its change list, which the target's triggers write while
 * vendors and versions arrive, are replaced by the source's at the end.
 */

export class CopyError extends Error {
  readonly kind = "copy";
}

/** How a column's values travel: only packed JSON differs between the dialects (bytea on PostgreSQL). */
type ColumnKind = "plain" | "packed";

interface ColumnPlan {
  name: string;
  kind: ColumnKind;
}

/** One table of the schema copied row for row. */
export interface TablePlan {
  name: string;
  columns: ColumnPlan[];
  key: string[];
  /** The key is one integer the database assigns (SQLite AUTOINCREMENT or rowid; PostgreSQL identity). */
  assignedKey: boolean;
  /** SQLite keeps its highest key in sqlite_sequence (AUTOINCREMENT: ids never reused). */
  autoIncrement: boolean;
  /** Tables the target's own triggers write: replaced by the source's rows once everything else is in. */
  replaced: boolean;
}

/** Written by triggers on vendors and incident_versions, in both dialects. */
const REPLACED_TABLES = new Set(["archive_revision", "archive_changes"]);

/** The schema's tables in an order where each comes after the tables its foreign keys name. */
export function copyPlan(): TablePlan[] {
  let tables: TableDescription[];
  try {
    tables = describeTables();
  } catch (error) {
    throw new CopyError(`copy: ${(error as Error).message}`, { cause: error });
  }
  const plans = new Map<string, TablePlan & { after: string[] }>();
  for (const table of tables) {
    plans.set(table.name, {
      name: table.name,
      columns: table.columns.map((c): ColumnPlan => ({ name: c.name, kind: c.packed ? "packed" : "plain" })),
      key: table.key,
      assignedKey: table.assignedKey,
      autoIncrement: table.autoIncrement,
      replaced: REPLACED_TABLES.has(table.name),
      after: table.references,
    });
  }
  const ordered: TablePlan[] = [];
  const placed = new Set<string>();
  const place = (name: string, path: string[]): void => {
    if (placed.has(name)) return;
    if (path.includes(name)) throw new CopyError(`copy: the foreign keys of ${[...path, name].join(" → ")} form a cycle`);
    const plan = plans.get(name);
    if (!plan) throw new CopyError(`copy: a foreign key names ${name}, which the schema does not describe`);
    for (const before of plan.after) place(before, [...path, name]);
    placed.add(name);
    const { after: _after, ...table } = plan;
    ordered.push(table);
  };
  for (const name of plans.keys()) if (!REPLACED_TABLES.has(name)) place(name, []);
  for (const name of plans.keys()) if (REPLACED_TABLES.has(name)) place(name, []);
  return ordered;
}

/**
 * The search tables each database keeps its own way (decision 0041), paired by name: the rows read
 * from the source's as the target's take them (the incident's text packed in one column, or a
 * column per part).
 */
function searchPairs(from: CopyDialect, to: CopyDialect): Array<{ source: SearchTableCopy; target: SearchTableCopy }> {
  return from.searchTables.map((source) => {
    const target = to.searchTables.find((t) => t.name === source.name);
    if (!target) throw new CopyError(`copy: the target keeps no ${source.name}`);
    return { source, target };
  });
}

function convertSearchRow(row: unknown[], from: SearchTableCopy, to: SearchTableCopy): unknown[] {
  if (from.packedText === to.packedText) return row;
  if (from.packedText) return [row[0], ...unpackSearchText(row[1] as Buffer)];
  return [row[0], packSearchText([String(row[1]), String(row[2]), String(row[3])])];
}

export interface CopyProgress {
  table: string;
  /** Rows written to the target in this run (a resumed copy skips what the target has). */
  copied: number;
  /** Rows the source holds. */
  total: number;
  /** Rows the target already held when this run started: a copy resumed. */
  resumed: number;
  done: boolean;
}

export interface CopyOptions {
  /** Rows per batch (one transaction on the target). */
  batchSize?: number;
  /** After each batch and when a table is done; a throw stops the copy there (what tests crash it with). */
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopySummary {
  tables: CopyProgress[];
  rows: number;
  revision: number;
}

const DEFAULT_BATCH = 1_000;
/** Parameters per INSERT, under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMETERS = 30_000;

/** Bytes of values per INSERT: a batch of large raw bodies is written in several statements. */
const MAX_INSERT_BYTES = 32 * 1024 * 1024;

const sizeOf = (value: unknown): number => (Buffer.isBuffer(value) ? value.length : typeof value === "string" ? value.length * 3 : 8);

/** The rows in runs of at most `rows` rows and about MAX_INSERT_BYTES (a row larger than that alone). */
function* insertChunks(rows: unknown[][], perInsert: number): Generator<unknown[][]> {
  let chunk: unknown[][] = [];
  let bytes = 0;
  for (const row of rows) {
    const size = row.reduce<number>((n, value) => n + sizeOf(value), 0);
    if (chunk.length > 0 && (chunk.length >= perInsert || bytes + size > MAX_INSERT_BYTES)) {
      yield chunk;
      [chunk, bytes] = [[], 0];
    }
    chunk.push(row);
    bytes += size;
  }
  if (chunk.length > 0) yield chunk;
}

const quote = (name: string): string => (name === "rowid" ? name : `"${name}"`);

/** Copy `source` into `target`, which must be empty or hold an earlier, unfinished copy of the same archive. */
export async function copyArchive(source: RedlineDb, target: RedlineDb, options: CopyOptions = {}): Promise<CopySummary> {
  if (source === target || source.connection === target.connection) throw new CopyError("copy: the source and the target are the same database");
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new CopyError(`copy: a batch is a whole number of rows, not ${batchSize}`);
  const plan = copyPlan();
  const from = source.connection;
  const to = target.connection;
  await checkTables(from, plan, "source");
  await checkTables(to, plan, "target");
  // One snapshot of the source throughout: what a poller writes meanwhile is not half copied.
  return transact(source, async () => {
    const snapshot = from.dialect.operations.copy.snapshot;
    if (snapshot !== null) await from.exec(snapshot);
    await checkSameArchive(from, to, plan);
    const progress: CopyProgress[] = [];
    const report = (p: CopyProgress): void => {
      options.onProgress?.({ ...p });
    };
    const tables = plan.filter((t) => !t.replaced);
    for (const table of tables) progress.push(await copyRows(source, target, tableCopy(table, from.dialect.operations.copy, to.dialect.operations.copy), batchSize, report));
    for (const search of searchPairs(from.dialect.operations.copy, to.dialect.operations.copy)) {
      progress.push(
        await copyRows(
          source,
          target,
          {
            name: search.target.table,
            source: { table: search.source.table, key: [search.source.key], columns: [...search.source.columns] },
            target: { table: search.target.table, key: [search.target.key], columns: [...search.target.columns], conflictClause: search.target.conflictClause },
            convert: (row) => convertSearchRow(row, search.source, search.target),
          },
          batchSize,
          report,
        ),
      );
    }
    const replaced = await replaceTables(source, target, plan.filter((t) => t.replaced), batchSize, report);
    progress.push(...replaced.progress);
    await carryKeyCounters(from, target, plan);
    await checkCounts(source, target, progress);
    return { tables: progress, rows: progress.reduce((n, p) => n + p.copied, 0), revision: replaced.revision };
  });
}

/** A value as the target's column takes it: packed JSON is bytea on PostgreSQL, text or a blob on SQLite. */
function convertValue(kind: ColumnKind, value: unknown, from: CopyDialect, to: CopyDialect): unknown {
  if (kind !== "packed" || value === null || value === undefined || from === to) return value;
  return to.packedValue(value as string | Buffer, repackBlob);
}

/** Packed bytes every database reads alike: a deflated row of an earlier SQLite Redline, which bytea could not tell from text, is packed again. */
function repackBlob(bytes: Buffer): Buffer {
  if (isDictionaryCompressed(bytes) || isZstdFrame(bytes)) return bytes;
  const packed = packJson(unpackJson(bytes));
  return typeof packed === "string" ? Buffer.from(packed, "utf8") : packed;
}

/** A table copied row for row, its packed columns converted for the target. */
function tableCopy(table: TablePlan, from: CopyDialect, to: CopyDialect): RowCopy {
  const columns = table.columns.map((c) => c.name);
  return {
    name: table.name,
    source: { table: table.name, key: table.key, columns },
    target: { table: table.name, key: table.key, columns, conflictClause: true },
    convert: (row) => row.map((value, i) => convertValue(table.columns[i]?.kind ?? "plain", value, from, to)),
  };
}

interface RowCopy {
  name: string;
  source: { table: string; key: string[]; columns: string[] };
  target: { table: string; key: string[]; columns: string[]; conflictClause: boolean };
  convert: (row: unknown[]) => unknown[];
}

function keysetSelect(table: string, columns: string[], key: string[], after: boolean): string {
  const list = columns.map((c, i) => `${quote(c)} AS c${i}`).join(", ");
  const keys = key.map(quote).join(", ");
  const where = after ? ` WHERE (${keys}) > (${key.map(() => "?").join(", ")})` : "";
  return `SELECT ${list} FROM ${quote(table)}${where} ORDER BY ${keys} LIMIT ?`;
}

async function lastKey(connection: Connection, table: string, key: string[]): Promise<unknown[] | undefined> {
  const sql = `SELECT ${key.map((k, i) => `${quote(k)} AS k${i}`).join(", ")} FROM ${quote(table)} ORDER BY ${key.map((k) => `${quote(k)} DESC`).join(", ")} LIMIT 1`;
  const row = await statementShaped<[], Record<string, unknown>>(connection, sql).get();
  return row ? key.map((_, i) => row[`k${i}`]) : undefined;
}

async function countOf(connection: Connection, table: string): Promise<number> {
  const row = await statementShaped<[], { n: number }>(connection, `SELECT count(*) AS n FROM ${quote(table)}`).get();
  return Number(row?.n ?? 0);
}

async function copyRows(source: RedlineDb, target: RedlineDb, copy: RowCopy, batchSize: number, report: (p: CopyProgress) => void): Promise<CopyProgress> {
  const from = source.connection;
  const to = target.connection;
  const total = await countOf(from, copy.source.table);
  const resumed = await countOf(to, copy.target.table);
  let cursor = await lastKey(to, copy.target.table, copy.target.key);
  const progress: CopyProgress = { table: copy.name, copied: 0, total, resumed, done: false };
  const width = copy.target.columns.length;
  const perInsert = Math.max(1, Math.min(batchSize, Math.floor(MAX_PARAMETERS / width)));
  const insertSql = (rows: number): string => {
    const tuple = `(${copy.target.columns.map(() => "?").join(", ")})`;
    const values = Array.from({ length: rows }, () => tuple).join(", ");
    const conflict = copy.target.conflictClause ? " ON CONFLICT DO NOTHING" : "";
    return `INSERT INTO ${quote(copy.target.table)} (${copy.target.columns.map(quote).join(", ")}) VALUES ${values}${conflict}`;
  };
  const keyIndexes = copy.source.key.map((k) => copy.source.columns.indexOf(k));
  if (keyIndexes.some((i) => i < 0)) throw new CopyError(`copy: ${copy.name}'s key is not among its columns`);
  for (;;) {
    const select = statementShaped<unknown[], Record<string, unknown>>(from, keysetSelect(copy.source.table, copy.source.columns, copy.source.key, cursor !== undefined));
    const read = await select.all(...(cursor ?? []), batchSize);
    if (read.length === 0) break;
    const rows = read.map((r) => copy.source.columns.map((_, i) => r[`c${i}`]));
    const converted = rows.map(copy.convert);
    await transact(
      target,
      async () => {
        for (const chunk of insertChunks(converted, perInsert)) await statementShaped(to, insertSql(chunk.length)).run(...chunk.flat());
      },
      { immediate: true },
    );
    const last = rows[rows.length - 1] ?? [];
    cursor = keyIndexes.map((i) => last[i]);
    progress.copied += rows.length;
    report(progress);
    if (read.length < batchSize) break;
  }
  progress.done = true;
  report(progress);
  return progress;
}

/**
 * The tables the target's triggers wrote while its vendors and versions arrived: emptied and
 * given the source's rows instead, in one transaction (each batch joins it), so the target's
 * revision and change list are the source's or, if this stops, still the triggers'.
 */
async function replaceTables(
  source: RedlineDb,
  target: RedlineDb,
  tables: TablePlan[],
  batchSize: number,
  report: (p: CopyProgress) => void,
): Promise<{ progress: CopyProgress[]; revision: number }> {
  const from = source.connection;
  const to = target.connection;
  const progress = await transact(
    target,
    async () => {
      const done: CopyProgress[] = [];
      for (const table of tables) {
        await to.exec(`DELETE FROM ${quote(table.name)}`);
        done.push(await copyRows(source, target, tableCopy(table, from.dialect.operations.copy, to.dialect.operations.copy), batchSize, report));
      }
      return done;
    },
    { immediate: true },
  );
  const row = await statementShaped<[], { revision: number }>(from, "SELECT revision FROM archive_revision WHERE id = 1").get();
  return { progress, revision: Number(row?.revision ?? 0) };
}

/**
 * Each assigned key's high-water mark goes with the rows: the source's key counter (higher than
 * the largest id after deletions) is raised to on the target, so the target's next insert takes an
 * id the source never gave.
 */
async function carryKeyCounters(from: Connection, target: RedlineDb, plan: TablePlan[]): Promise<void> {
  const to = target.connection;
  const marks: Array<{ table: TablePlan; column: string; mark: number }> = [];
  for (const table of plan) {
    if (!table.assignedKey) continue;
    const [column] = table.key;
    if (column === undefined) continue;
    let mark = Number((await lastKey(from, table.name, [column]))?.[0] ?? 0);
    mark = Math.max(mark, await from.dialect.operations.copy.readKeyCounter(from, table.name, column, table.autoIncrement));
    marks.push({ table, column, mark: Math.max(mark, Number((await lastKey(to, table.name, [column]))?.[0] ?? 0)) });
  }
  await transact(
    target,
    async () => {
      for (const { table, column, mark } of marks) {
        if (mark < 1) continue;
        await to.dialect.operations.copy.raiseKeyCounter(to, table.name, column, mark, table.autoIncrement);
      }
    },
    { immediate: true },
  );
}

/**
 * Every table holds as many rows as the source's: rows the source lost since an interrupted copy
 * (a prune, a rewind) would otherwise stay in the target, unnoticed.
 */
async function checkCounts(source: RedlineDb, target: RedlineDb, progress: CopyProgress[]): Promise<void> {
  const names = new Map<string, string>(searchPairs(source.connection.dialect.operations.copy, target.connection.dialect.operations.copy).map((s) => [s.target.table, s.source.table]));
  for (const p of progress) {
    const theirs = await countOf(source.connection, names.get(p.table) ?? p.table);
    const ours = await countOf(target.connection, p.table);
    if (theirs !== ours) {
      throw new CopyError(
        `copy: the target's ${p.table} has ${ours} rows, the source's ${theirs}: the source changed since the copy was interrupted (stop the poller, and copy again into an empty database)`,
      );
    }
  }
}

/** The tables a database holds, with their columns (PostgreSQL's generated tsvectors left out: they are computed). */
export async function databaseTables(connection: Connection): Promise<Map<string, string[]>> {
  const rows = await statementShaped<[], { tableName: string; columnName: string }>(connection, connection.dialect.operations.copy.listColumns).all();
  const tables = new Map<string, string[]>();
  for (const { tableName, columnName } of rows) {
    const columns = tables.get(tableName) ?? [];
    columns.push(columnName);
    tables.set(tableName, columns);
  }
  return tables;
}

/** What the copy does not know would be lost: every table and column of the database must be in the plan. */
async function checkTables(connection: Connection, plan: TablePlan[], role: string): Promise<void> {
  const live = await databaseTables(connection);
  const known = new Map<string, string[]>(plan.map((t) => [t.name, t.columns.map((c) => c.name)]));
  const copy = connection.dialect.operations.copy;
  for (const search of copy.searchTables) known.set(search.table, search.columns.filter((c) => c !== "rowid"));
  for (const [table, columns] of live) {
    if (copy.notCopied.has(table)) continue;
    const expected = known.get(table);
    if (!expected) throw new CopyError(`copy: the ${role} has a table ${table} this Redline does not know how to copy (is it a newer Redline's database?)`);
    const unknown = columns.filter((c) => !expected.includes(c));
    const missing = expected.filter((c) => !columns.includes(c));
    if (unknown.length > 0 || missing.length > 0) {
      throw new CopyError(`copy: the ${role}'s table ${table} has columns ${unknown.length > 0 ? unknown.join(", ") : "(none extra)"} and lacks ${missing.length > 0 ? missing.join(", ") : "(none)"}: a different version of Redline's schema`);
    }
  }
  for (const name of known.keys()) if (!live.has(name)) throw new CopyError(`copy: the ${role} has no table ${name}: are its migrations applied (\`redline migrate\` on it)?`);
}

/** A value as either dialect reads it back, to tell one row from another: packed bytes as text, JSON parsed (jsonb rewrites its text). */
export function comparable(value: unknown): unknown {
  if (Buffer.isBuffer(value)) {
    const read = packedFromBytes(value);
    return typeof read === "string" ? comparable(read) : `bytes:${read.toString("hex")}`;
  }
  if (typeof value === "string" && /^[[{]/.test(value)) {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  return value;
}

/**
 * The target must be empty or hold part of this very copy: its vendors the source's (same ids,
 * slugs and creation times), and each table's last row, which a batch wrote whole, the source's
 * row of that key as the copy would write it.
 */
async function checkSameArchive(from: Connection, to: Connection, plan: TablePlan[]): Promise<void> {
  const vendorsSql = "SELECT id, slug, created_at AS createdAt FROM vendors ORDER BY id";
  const theirs = await statementShaped<[], { id: number; slug: string; createdAt: string }>(to, vendorsSql).all();
  if (theirs.length > 0) {
    const ours = new Map((await statementShaped<[], { id: number; slug: string; createdAt: string }>(from, vendorsSql).all()).map((v) => [v.id, v]));
    for (const vendor of theirs) {
      const same = ours.get(vendor.id);
      if (!same || same.slug !== vendor.slug || same.createdAt !== vendor.createdAt) {
        throw new CopyError(
          `copy: the target holds a different archive: its vendor ${vendor.id} is ${JSON.stringify(vendor.slug)}, the source's ${same ? JSON.stringify(same.slug) : "does not exist"} (copy into an empty database)`,
        );
      }
    }
  }
  for (const table of plan.filter((t) => !t.replaced)) {
    const last = await lastKey(to, table.name, table.key);
    if (last === undefined) continue;
    const columns = table.columns.map((c) => c.name);
    const where = table.key.map((k) => `${quote(k)} = ?`).join(" AND ");
    const sql = `SELECT ${columns.map((c, i) => `${quote(c)} AS c${i}`).join(", ")} FROM ${quote(table.name)} WHERE ${where}`;
    const read = async (connection: Connection) => {
      const row = await statementShaped<unknown[], Record<string, unknown>>(connection, sql).get(...last);
      return row ? columns.map((_, i) => row[`c${i}`]) : undefined;
    };
    const ours = await read(from);
    const written = ours?.map((value, i) => comparable(convertValue(table.columns[i]?.kind ?? "plain", value, from.dialect.operations.copy, to.dialect.operations.copy)));
    const held = (await read(to))?.map(comparable);
    if (!written || !isDeepStrictEqual(written, held)) {
      throw new CopyError(
        `copy: the target holds a different archive: its ${table.name} row (${last.join(", ")}) is ${written ? "not the source's" : "one the source does not have"} ` +
          "(copy into an empty database; a target an interrupted copy left is resumed only from the same, unchanged source)",
      );
    }
  }
  for (const s of searchPairs(from.dialect.operations.copy, to.dialect.operations.copy)) {
    const last = await lastKey(to, s.target.table, [s.target.key]);
    if (last === undefined) continue;
    const found = await statementShaped(from, `SELECT 1 AS found FROM ${quote(s.source.table)} WHERE ${quote(s.source.key)} = ?`).get(...last);
    if (!found) throw new CopyError(`copy: the target holds a different archive: its ${s.target.table} has a row (${last.join(", ")}) the source does not (copy into an empty database)`);
  }
}
