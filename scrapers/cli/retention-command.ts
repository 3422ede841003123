import { keepRawDays, readEnv } from "@/lib/env";
import { pruneRawBodies, retentionHorizon } from "@/db/operations/raw-retention";
import { getVendorBySlug } from "@/db/settings/vendors";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";

/** --keep-raw-days, else REDLINE_KEEP_RAW_DAYS; undefined: raw bodies are kept forever. */
export function keepRawDaysOption(flag: string | undefined): number | undefined {
  if (flag === undefined) return readEnv().REDLINE_KEEP_RAW_DAYS;
  const parsed = keepRawDays.safeParse(flag);
  if (!parsed.success || parsed.data === undefined) {
    throw new CliError(`--keep-raw-days ${JSON.stringify(flag)}: ${parsed.error?.issues[0]?.message ?? "must be a whole number of days"}`);
  }
  return parsed.data;
}

/** Delete the raw bodies past retention; the captures and the history derived from them stay. */
export async function runPruneRaw(opts: { db?: string; keepRawDays?: string; vendor?: string }): Promise<void> {
  const days = keepRawDaysOption(opts.keepRawDays);
  if (days === undefined) throw new CliError("raw bodies are kept forever: pass --keep-raw-days N or set REDLINE_KEEP_RAW_DAYS");
  await withDatabase("prune-raw", opts, async (db) => {
    let vendorId: number | undefined;
    if (opts.vendor !== undefined) {
      const vendor = await getVendorBySlug(db, opts.vendor);
      if (!vendor) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
      vendorId = vendor.id;
    }
    const before = retentionHorizon(days);
    const result = await pruneRawBodies(db, { before, vendorId });
    process.stdout.write(
      `raw bodies of captures last observed before ${before}: ${result.captures} captures lost their body, ` +
        `${result.bodies} bodies deleted, ${result.rebased} kept bodies stored whole again; incidents and versions are unchanged\n`,
    );
  });
}
