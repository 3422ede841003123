import fs from "node:fs";
import { closeStore, isDatabaseUrl, openStore, type RedlineDb } from "@/db/client";
import { databaseLocation, readEnv } from "@/lib/env";
import { ARCHIVE_ACCESS, type ArchiveCommand } from "@/scrapers/cli/archive-access";
import { getPlatform, PLATFORM_NAMES } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";

export class CliError extends Error {
  readonly kind: "cli" | "usage" = "cli";
}

/** A flag's value the command refuses before doing anything: exit 2, as commander's own usage errors. */
export class CliUsageError extends CliError {
  override readonly kind = "usage";
}

/** `--db`, else REDLINE_DATABASE_URL, else the SQLite file REDLINE_DB. */
export function resolveDbPath(opts: { db?: string }): string {
  return opts.db ?? databaseLocation(readEnv());
}

export function requirePlatform(name: string): Platform {
  const platform = getPlatform(name);
  if (!platform) throw new CliError(`unknown platform ${JSON.stringify(name)} (known: ${PLATFORM_NAMES.join(", ")})`);
  return platform;
}

/**
 * Open the archive for one command, with its migrations applied, and always close it (SQLite
 * checkpoints its WAL on close; PostgreSQL's pool ends its connections). Where there is no SQLite
 * file yet, only a command that starts an archive (ARCHIVE_ACCESS) makes one; the others refuse.
 * A PostgreSQL database that does not exist fails to connect, saying so.
 */
export async function withDatabase<T>(command: ArchiveCommand, opts: { db?: string }, work: (db: RedlineDb) => Promise<T> | T): Promise<T> {
  const location = resolveDbPath(opts);
  if (ARCHIVE_ACCESS[command] === "refuse" && !isDatabaseUrl(location) && !fs.existsSync(location)) {
    throw new CliError(`no archive at ${location}: give --db <file or url> (or set REDLINE_DB) to name yours, or start one here with \`redline migrate\``);
  }
  const db = await openStore(location);
  try {
    return await work(db);
  } finally {
    await closeStore(db);
  }
}
