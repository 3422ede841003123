import { backupDatabase, restoreDatabase } from "@/db/backup";
import { DatabaseError } from "@/db/client";
import { getVendorBySlug } from "@/db/vendors";
import { rederiveVendor } from "@/scrapers/ingest/rederive";
import { CliError, resolveDbPath, withDatabase } from "@/scrapers/cli/cli-context";

export async function runMigrate(opts: { db?: string }): Promise<void> {
  await withDatabase(opts, () => {
    process.stdout.write(`migrated ${resolveDbPath(opts)}\n`);
  });
}

export async function runRederive(opts: { vendor: string; db?: string }): Promise<void> {
  await withDatabase(opts, async (db) => {
    const vendor = getVendorBySlug(db, opts.vendor);
    if (!vendor) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    const result = await rederiveVendor(db, vendor);
    process.stdout.write(`rederived ${vendor.slug}: ${result.captures} captures, ${result.versions} versions\n`);
  }, { mustExist: true });
}

export async function runBackup(target: string, opts: { db?: string }): Promise<void> {
  const file = resolveDbPath(opts);
  const started = performance.now();
  try {
    const result = await backupDatabase(file, target);
    process.stdout.write(
      `backed up ${file} to ${result.file}: ${(result.bytes / 1e6).toFixed(1)} MB, ${result.versions} versions, in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
  } catch (error) {
    if (error instanceof DatabaseError) throw new CliError(error.message);
    throw error;
  }
}

export async function runRestore(backup: string, opts: { db?: string }): Promise<void> {
  const file = resolveDbPath(opts);
  try {
    const result = await restoreDatabase(backup, file);
    process.stdout.write(
      `restored ${file} from ${backup}: ${result.versions} versions` + (result.previous ? `; the database it replaced is kept as ${result.previous}\n` : "\n"),
    );
  } catch (error) {
    if (error instanceof DatabaseError) throw new CliError(error.message);
    throw error;
  }
}
