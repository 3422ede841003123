/**
 * The databases a benchmark runs on, one after the other in the same run: SQLite (a file in a
 * temporary folder) and PostgreSQL (a throwaway cluster of Debian's binaries on a local port, with
 * durable settings, so its figures are a real server's). `--db sqlite` or `--db postgres` picks one;
 * without it both run when PostgreSQL's binaries are installed, else SQLite alone, saying so.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeStore, openStore } from "@/db/client";
import { copyArchive } from "@/db/operations/copy";
/** Which database a benchmark runs on. */
type Dialect = "sqlite" | "postgres";
import { findPostgresBinaries } from "@/tests/support/postgres-binaries";
import { type PostgresCluster, startPostgresCluster } from "@/tests/support/postgres-cluster";
import { postgresBinOverride } from "@/tests/support/test-database-settings";

export interface BenchDatabase {
  dialect: Dialect;
  /** A SQLite file or a postgres:// URL: what `openStore` and `--db` take. */
  location: string;
}

/** A cluster as a production server runs: every commit flushed, full pages logged. */
const DURABLE = { fsync: "on", synchronous_commit: "on", full_page_writes: "on", shared_buffers: "256MB" };

function askedDialects(argv: readonly string[]): Dialect[] | undefined {
  const at = argv.findIndex((a) => a === "--db" || a.startsWith("--db="));
  if (at < 0) return undefined;
  const value = argv[at]?.includes("=") ? argv[at]?.slice("--db=".length) : argv[at + 1];
  const names = (value ?? "").split(",").filter((n) => n !== "");
  for (const name of names) if (name !== "sqlite" && name !== "postgres") throw new Error(`bench: --db takes sqlite, postgres or both (comma-separated), not ${JSON.stringify(name)}`);
  if (names.length === 0) throw new Error("bench: --db needs sqlite, postgres or both");
  return names as Dialect[];
}

function postgresInstalled(): boolean {
  try {
    findPostgresBinaries(postgresBinOverride);
    return true;
  } catch {
    return false;
  }
}

/** The dialects this run measures. */
export function benchDialects(argv: readonly string[] = process.argv): Dialect[] {
  const asked = askedDialects(argv);
  if (asked) return asked;
  if (postgresInstalled()) return ["sqlite", "postgres"];
  console.log("bench: PostgreSQL's binaries are not installed (apt-get install -y postgresql): SQLite alone");
  return ["sqlite"];
}

/**
 * Runs `work` once per database of this run, each new and empty, and returns what each gave.
 * The PostgreSQL cluster is started once and stopped at the end.
 */
export async function onEachDatabase<T>(work: (database: BenchDatabase) => Promise<T>, argv: readonly string[] = process.argv): Promise<Array<{ database: BenchDatabase; result: T }>> {
  const dialects = benchDialects(argv);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-bench-db-"));
  let cluster: PostgresCluster | undefined;
  const results: Array<{ database: BenchDatabase; result: T }> = [];
  try {
    for (const dialect of dialects) {
      let location: string;
      if (dialect === "sqlite") location = path.join(dir, "bench.db");
      else {
        cluster ??= await startPostgresCluster({ settings: DURABLE });
        location = await cluster.createDatabase("redline_bench");
      }
      const database = { dialect, location };
      results.push({ database, result: await work(database) });
    }
    return results;
  } finally {
    await cluster?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The database's name as a table of figures gives it. */
export function dialectLabel(dialect: Dialect): string {
  return dialect === "sqlite" ? "SQLite" : "PostgreSQL";
}

/**
 * Runs `work` once per database of this run over the same archive: the SQLite file `seedFile`
 * itself, and on PostgreSQL a copy of it (`redline copy`'s copyArchive) made before `work` starts
 * and not timed, so both databases serve the same rows.
 */
export async function onEachSeedCopy<T>(seedFile: string, work: (database: BenchDatabase) => Promise<T>, argv: readonly string[] = process.argv): Promise<Array<{ database: BenchDatabase; result: T }>> {
  const dialects = benchDialects(argv);
  let cluster: PostgresCluster | undefined;
  const results: Array<{ database: BenchDatabase; result: T }> = [];
  try {
    for (const dialect of dialects) {
      let location = seedFile;
      if (dialect === "postgres") {
        cluster ??= await startPostgresCluster({ settings: DURABLE });
        location = await cluster.createDatabase("redline_bench_seed");
        const started = performance.now();
        const [source, target] = [await openStore(seedFile, { readonly: true }), await openStore(location)];
        try {
          const copied = await copyArchive(source, target, { batchSize: 5_000 });
          await target.connection.exec("VACUUM ANALYZE");
          console.log(`copied the archive to PostgreSQL: ${copied.rows} rows in ${((performance.now() - started) / 1000).toFixed(0)} s (not timed)`);
        } finally {
          await closeStore(source);
          await closeStore(target);
        }
      }
      const database = { dialect, location };
      console.log(`-- ${dialectLabel(dialect)}`);
      results.push({ database, result: await work(database) });
    }
    return results;
  } finally {
    await cluster?.stop();
  }
}
