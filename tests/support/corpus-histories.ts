import type { RedlineDb } from "@/db/client";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { corpusPath } from "@/tests/support/corpus-location";

/** The corpus's Statuspage summary.json histories: the grid, its incidents and their updates over time. */
export const SUMMARY_HISTORIES = [
  { folder: "statuspage-summary-github-2025", vendor: "github" },
  { folder: "statuspage-summary-jira", vendor: "jira" },
  { folder: "statuspage-summary-trello-nonutc", vendor: "trello" },
] as const;

/** One of them imported into `db` as the vendor `slug`, the way `redline import` does. */
export async function importSummaryHistory(db: RedlineDb, folder: string, slug: string): Promise<VendorRow> {
  const platform = getPlatform("statuspage-summary");
  if (!platform) throw new Error("no statuspage-summary platform");
  const vendor = await ensureVendor(db, { slug, platform: platform.name });
  await importSnapshots(db, vendor, platform, listSnapshotFolder(corpusPath(folder)).snapshots);
  return vendor;
}
