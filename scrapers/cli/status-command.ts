import { findStatusPage } from "@/db/queries/status-page";
import { getVendorBySlug } from "@/db/settings/vendors";
import { parseStatusAt } from "@/lib/components/status-instant";
import { readNowRules } from "@/lib/now-rules";
import { renderStatusText } from "@/lib/render/status-text";
import { CliError, CliUsageError, withDatabase } from "@/scrapers/cli/cli-context";

/** `redline status`: the vendor's page as it was at `--at`, or now. */
export async function runStatus(opts: { vendor: string; at?: string; format: "text" | "json"; db?: string }): Promise<void> {
  const parsed = opts.at === undefined ? { at: undefined } : parseStatusAt(opts.at);
  if ("error" in parsed) throw new CliUsageError(`--at: ${parsed.error}`);
  await withDatabase("status", opts, async (db) => {
    if (!(await getVendorBySlug(db, opts.vendor))) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    const answer = await findStatusPage(db, opts.vendor, parsed.at ?? null, readNowRules(), new Date());
    if (!answer) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    if ("refused" in answer) throw new CliError(answer.refused);
    process.stdout.write(opts.format === "json" ? `${JSON.stringify(answer.page.view, null, 2)}\n` : renderStatusText(answer.page));
  });
}
