import fs from "node:fs";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { readEnv } from "@/lib/env";
import { getPlatform, PLATFORM_NAMES } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";

export class CliError extends Error {
  readonly kind = "cli";
}

export function resolveDbPath(opts: { db?: string }): string {
  return opts.db ?? readEnv().REDLINE_DB;
}

export function requirePlatform(name: string): Platform {
  const platform = getPlatform(name);
  if (!platform) throw new CliError(`unknown platform ${JSON.stringify(name)} (known: ${PLATFORM_NAMES.join(", ")})`);
  return platform;
}

/** Open the database for one command and always close it, so WAL is checkpointed on exit. */
export async function withDatabase<T>(
  opts: { db?: string },
  work: (db: RedlineDb) => Promise<T> | T,
  { mustExist = false }: { mustExist?: boolean } = {},
): Promise<T> {
  const file = resolveDbPath(opts);
  if (mustExist && !fs.existsSync(file)) throw new CliError(`no database at ${file} (import something first, or pass --db)`);
  const db = openDatabase(file);
  try {
    return await work(db);
  } finally {
    closeDatabase(db);
  }
}
