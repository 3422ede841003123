import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { MigrationSteps, ProcessDialect, RedlineDb } from "@/db/driver/database";

/** What the processes around a SQLite archive need to know of it (db/driver/database.ts). */
export const sqliteProcess: ProcessDialect = {
  migrationsFolder: path.join(process.cwd(), "db", "migrations"),
  applyMigrations: async (db, folder, steps) => applySqliteMigrations(db, folder, steps),
  // FTS5 writes a segment per transaction; merged, a search reads one.
  tidiesSearchIndex: true,
  searchesOnServer: false,
  // Beside the archive, on its disk: a rebuild swaps the scratch file's rows in.
  scratchFolder(db) {
    const file = db.$client.name;
    return file === ":memory:" || file === "" ? os.tmpdir() : path.dirname(path.resolve(file));
  },
  identity: async (location) => `file:${fs.realpathSync(path.resolve(location))}`,
};

/** Apply the migrations in `folder` and what they leave to JavaScript, synchronously: it runs inside opening a file. */
export function applySqliteMigrations(db: RedlineDb, folder: string, steps: MigrationSteps): void {
  try {
    migrate(db, { migrationsFolder: folder });
    steps.fillVersionSearch(db);
  } catch (error) {
    throw steps.failed(error);
  }
}
