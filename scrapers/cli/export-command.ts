import { loadVendorExport } from "@/db/queries/incident-history";
import { getVendorBySlug } from "@/db/settings/vendors";
import { parseSeq } from "@/db/queries/incident-route";
import { renderExportJson, renderVersionExportJson, toVersionExport } from "@/lib/export-document";
import { renderExportMarkdown, renderVersionExportMarkdown } from "@/lib/render/export-markdown";
import { CliError, withDatabase } from "@/scrapers/cli/cli-context";

export async function runExport(opts: { vendor: string; incident?: string; version?: string; format: string; db?: string }): Promise<void> {
  if (opts.format !== "json" && opts.format !== "md") throw new CliError(`unknown format ${JSON.stringify(opts.format)} (use json or md)`);
  const seq = opts.version === undefined ? undefined : parseSeq(opts.version);
  if (seq === null) throw new CliError(`--version must be a version number, not ${JSON.stringify(opts.version)}`);
  if (seq !== undefined && opts.incident === undefined) throw new CliError("--version goes with --incident");
  await withDatabase("export", opts, async (db) => {
    if (!(await getVendorBySlug(db, opts.vendor))) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    const doc = await loadVendorExport(db, opts.vendor, opts.incident);
    if (!doc) throw new CliError(`vendor ${opts.vendor} has no incident ${JSON.stringify(opts.incident)}`);
    if (seq !== undefined) {
      const one = toVersionExport(doc, seq);
      if (!one) throw new CliError(`incident ${opts.incident ?? ""} has no version ${seq}`);
      process.stdout.write(opts.format === "json" ? renderVersionExportJson(one) : renderVersionExportMarkdown(one));
      return;
    }
    process.stdout.write(opts.format === "json" ? renderExportJson(doc) : renderExportMarkdown(doc));
  });
}
