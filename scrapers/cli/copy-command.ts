import fs from "node:fs";
import { SingleBar } from "cli-progress";
import { closeStore, isDatabaseUrl, migrateStore, openStore, redact, type RedlineDb } from "@/db/client";
import { copyArchive, type CopyProgress, databaseTables } from "@/db/operations/copy";
import { CliError } from "@/scrapers/cli/cli-context";
import { conversionPending } from "@/scrapers/cli/maintenance-commands";

/** Where a database lives, to tell whether two locations are one: a file's real path, a server's database. */
function identityOf(location: string, db: RedlineDb): Promise<string> {
  return db.connection.dialect.process.identity(location, db);
}

/**
 * The target as `migrate` leaves it: a new database (no tables yet) gets the migrations; one that
 * has tables is left as it is, for the copy to resume in or refuse, so a database that is not an
 * earlier copy is not written to at all.
 */
async function openTarget(location: string): Promise<RedlineDb> {
  const db = await openStore(location, { migrate: false });
  try {
    if ((await databaseTables(db.connection)).size === 0) await migrateStore(db);
    return db;
  } catch (error) {
    await closeStore(db);
    throw error;
  }
}

/**
 * A progress bar per table on a terminal (cli-progress, decision 0003); elsewhere a line per table
 * and every 10,000 rows on the way, so a log shows where a copy was when it stopped.
 */
function progressReporter(): { update(p: CopyProgress): void; stop(): void } {
  if (process.stderr.isTTY) {
    let bar: SingleBar | undefined;
    let table = "";
    return {
      update(p) {
        // An empty table gets no bar: its estimate of time left would be nonsense.
        if (p.total === 0) return;
        if (p.table !== table) {
          bar?.stop();
          table = p.table;
          bar = new SingleBar({ stream: process.stderr, format: `copying ${p.table} [{bar}] {value}/{total} rows | {eta_formatted} left`, hideCursor: true });
          bar.start(p.total, p.resumed);
        }
        bar?.update(Math.min(p.total, p.resumed + p.copied));
      },
      stop: () => bar?.stop(),
    };
  }
  let table = "";
  let printed = 0;
  return {
    update(p) {
      if (p.table !== table) [table, printed] = [p.table, 0];
      if (!p.done && p.copied - printed < 10_000) return;
      printed = p.copied;
      const resumed = p.resumed > 0 ? ` (${p.resumed} already there)` : "";
      process.stderr.write(`copy: ${p.table}: ${p.copied} rows copied of ${p.total}${resumed}${p.done ? "" : " …"}\n`);
    },
    stop() {},
  };
}

/** A SQLite file whose layout an in-place conversion of `migrate` would still rewrite: copied as it is, PostgreSQL could not read it. */
function checkConverted(location: string, role: string): void {
  if (!isDatabaseUrl(location) && conversionPending(location).any) {
    throw new CliError(`the ${role} ${location} holds an earlier Redline's layout: run \`npm run redline -- migrate --db ${location}\` first`);
  }
}

/**
 * `redline copy --from <a> --to <b>`: the whole archive from one database to another, SQLite or
 * PostgreSQL either way. Run again after a crash, it resumes (docs/decisions/0046-copying-between-databases.md).
 */
export async function runCopy(opts: { from: string; to: string; batch?: string }): Promise<void> {
  const batchSize = opts.batch === undefined ? undefined : Number(opts.batch);
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) throw new CliError(`--batch must be a whole number of rows, not ${JSON.stringify(opts.batch)}`);
  if (!isDatabaseUrl(opts.from) && !fs.existsSync(opts.from)) throw new CliError(`no database at ${opts.from} to copy from`);
  if (!isDatabaseUrl(opts.to) && !isDatabaseUrl(opts.from) && fs.existsSync(opts.to) && fs.realpathSync(opts.to) === fs.realpathSync(opts.from)) {
    throw new CliError("the source and the target are the same database");
  }
  checkConverted(opts.from, "source");
  checkConverted(opts.to, "target");
  const started = Date.now();
  // As it is: a source of an earlier schema is refused (migrate it first), not changed by the copy.
  const source = await openStore(opts.from, { readonly: true });
  let target: RedlineDb | undefined;
  const progress = progressReporter();
  try {
    if (isDatabaseUrl(opts.to) && isDatabaseUrl(opts.from)) {
      // Two URLs may name one database: compared before the target is opened, let alone migrated.
      const probe = await openStore(opts.to, { migrate: false });
      try {
        if ((await identityOf(opts.from, source)) === (await identityOf(opts.to, probe))) throw new CliError("the source and the target are the same database");
      } finally {
        await closeStore(probe);
      }
    }
    target = await openTarget(opts.to);
    const summary = await copyArchive(source, target, { batchSize, onProgress: (p) => progress.update(p) });
    progress.stop();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`copied ${summary.rows} rows in ${summary.tables.length} tables from ${redact(opts.from)} to ${redact(opts.to)} in ${seconds} s (archive revision ${summary.revision})\n`);
  } finally {
    progress.stop();
    if (target) await closeStore(target);
    await closeStore(source);
  }
}
