import { loadVendorExport } from "@/db/queries/incident-history";
import { getVendorBySlug } from "@/db/vendors";
import { renderExportJson } from "@/lib/export-document";
import { renderExportMarkdown } from "@/lib/render/export-markdown";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";

export async function runExport(opts: { vendor: string; incident?: string; format: string; db?: string }): Promise<void> {
  if (opts.format !== "json" && opts.format !== "md") throw new CliError(`unknown format ${JSON.stringify(opts.format)} (use json or md)`);
  await withDatabase(opts, (db) => {
    if (!getVendorBySlug(db, opts.vendor)) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    const doc = loadVendorExport(db, opts.vendor, opts.incident);
    if (!doc) throw new CliError(`vendor ${opts.vendor} has no incident ${JSON.stringify(opts.incident)}`);
    process.stdout.write(opts.format === "json" ? renderExportJson(doc) : renderExportMarkdown(doc));
  }, { mustExist: true });
}
