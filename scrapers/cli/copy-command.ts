import fs from "node:fs";
import path from "node:path";
import { closeStore, isDatabaseUrl, openStore, redact, type RedlineDb } from "@/db/client";
import { copyArchive, type CopyProgress } from "@/db/copy";
import type { Connection } from "@/db/driver/connection";
import { CliError } from "@/scrapers/cli/cli-context";

/** Where a database lives, to tell whether two locations are one: a file's real path, a server's database. */
async function identity(location: string, connection: Connection): Promise<string> {
  if (!isDatabaseUrl(location)) return `file:${fs.realpathSync(path.resolve(location))}`;
  const row = await connection
    .prepare<[], { db: string; addr: string | null; port: number | null }>("SELECT current_database() AS db, host(inet_server_addr()) AS addr, inet_server_port() AS port")
    .get();
  const url = new URL(location);
  return `postgres:${row?.addr ?? url.hostname}:${row?.port ?? url.port}/${row?.db ?? url.pathname}`;
}

/**
 * `redline copy --from <a> --to <b>`: the whole archive from one database to another, SQLite or
 * PostgreSQL either way. Run again after a crash, it resumes (docs/decisions/0046-copying-an-archive.md).
 */
export async function runCopy(opts: { from: string; to: string; batch?: string }): Promise<void> {
  const batchSize = opts.batch === undefined ? undefined : Number(opts.batch);
  if (batchSize !== undefined && (!Number.isInteger(batchSize) || batchSize < 1)) throw new CliError(`--batch must be a whole number of rows, not ${JSON.stringify(opts.batch)}`);
  if (!isDatabaseUrl(opts.from) && !fs.existsSync(opts.from)) throw new CliError(`no database at ${opts.from} to copy from`);
  if (!isDatabaseUrl(opts.to) && !isDatabaseUrl(opts.from) && fs.existsSync(opts.to) && fs.realpathSync(opts.to) === fs.realpathSync(opts.from)) {
    throw new CliError("the source and the target are the same database");
  }
  const started = Date.now();
  const source = await openStore(opts.from);
  let target: RedlineDb | undefined;
  try {
    target = await openStore(opts.to);
    if ((await identity(opts.from, source.connection)) === (await identity(opts.to, target.connection))) throw new CliError("the source and the target are the same database");
    const printed = new Map<string, number>();
    const summary = await copyArchive(source, target, {
      batchSize,
      onProgress: (p: CopyProgress) => {
        // A line per table, and for a long one every 10,000 rows on the way.
        const last = printed.get(p.table) ?? -1;
        if (!p.done && p.copied - Math.max(last, 0) < 10_000 && last >= 0) return;
        if (p.done && last === p.copied) return;
        printed.set(p.table, p.copied);
        const resumed = p.resumed > 0 ? ` (${p.resumed} already there)` : "";
        process.stderr.write(`copy: ${p.table}: ${p.copied} rows copied of ${p.total}${resumed}${p.done ? "" : " …"}\n`);
      },
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    process.stdout.write(`copied ${summary.rows} rows in ${summary.tables.length} tables from ${redact(opts.from)} to ${redact(opts.to)} in ${seconds} s (archive revision ${summary.revision})\n`);
  } finally {
    if (target) await closeStore(target);
    await closeStore(source);
  }
}
