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
