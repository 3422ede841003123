import { SingleBar } from "cli-progress";
import { ensureVendor, getVendorBySlug, type VendorRow } from "@/db/settings/vendors";
import { vendorSlugProblem } from "@/lib/vendor-slug";
import { listFileVersions, readFileVersions } from "@/scrapers/ingest/git-snapshots";
import { type ImportSummary, importSnapshots, listSnapshotFolder, type SnapshotSource } from "@/scrapers/ingest/import-snapshots";
import { CliError, requirePlatform, withDatabase } from "@/scrapers/cli/cli-context";
import { describePlatformFamily, isSameFamily } from "@/scrapers/platforms/families";

interface ImportOptions {
  vendor: string;
  platform: string;
  name?: string;
  addSource?: boolean;
  /** Notify subscriptions of the versions added (backfill notifies no one by default). */
  notify?: boolean;
  db?: string;
}

function requireSlug(slug: string): void {
  const problem = vendorSlugProblem(slug);
  if (problem !== null) throw new CliError(problem);
}

/** Snapshots of another product than the vendor's history came from go in only when the user says so. */
function checkTarget(existing: VendorRow | undefined, slug: string, platform: string, addSource: boolean): void {
  if (!existing) {
    if (addSource) throw new CliError(`no vendor ${slug} to add a source to: drop --add-source to create it, or check --vendor`);
    return;
  }
  if (addSource || isSameFamily(existing.platform, platform)) return;
  throw new CliError(
    `vendor ${slug} is of ${describePlatformFamily(existing.platform)}, these snapshots of ${describePlatformFamily(platform)}: ` +
      "if they are another source of the same vendor, run again with --add-source; else import them under another --vendor",
  );
}

function progressBar(total: number): { update(done: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new SingleBar(
    { stream: process.stderr, format: "importing [{bar}] {value}/{total} snapshots | {eta_formatted} left", hideCursor: true },
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}

function printSummary(what: string, s: ImportSummary, skipped: readonly string[]): void {
  const seconds = (s.elapsedMs / 1000).toFixed(1);
  const rebuilt = s.rederived ? " (history re-derived: captures arrived out of order, or parsers changed)" : "";
  process.stdout.write(
    `imported ${what}: ${s.captures} captures (${s.duplicates} already recorded), ${s.versions} new versions${rebuilt}, ` +
      `${s.failed} failed, ${s.invalid} invalid captures in ${seconds} s\n`,
  );
  if (s.warnings > 0) {
    process.stdout.write(`${s.withWarnings} captures had parts that could not be read (${s.warnings} in all); the rest of each was recorded:\n`);
    for (const w of s.sampleWarnings) process.stdout.write(`  ${w.snapshot}: at ${w.path}: ${w.message}\n`);
    if (s.warnings > s.sampleWarnings.length) process.stdout.write(`  … (the operator page lists every capture's warnings)\n`);
  }
  if (skipped.length > 0) {
    process.stdout.write(`skipped ${skipped.length} files not named <YYYYMMDDTHHMMSSZ>__<name>: ${skipped.slice(0, 5).join(", ")}${skipped.length > 5 ? ", …" : ""}\n`);
  }
}

async function runSnapshots(command: "import" | "import-git", opts: ImportOptions, what: string, total: number, snapshots: Iterable<SnapshotSource> | AsyncIterable<SnapshotSource>, skipped: string[]): Promise<void> {
  const platform = requirePlatform(opts.platform);
  const addSource = opts.addSource === true;
  await withDatabase(addSource ? `${command} --add-source` : command, opts, async (db) => {
    const existing = await getVendorBySlug(db, opts.vendor);
    checkTarget(existing, opts.vendor, platform.name, addSource);
    const vendor = existing ?? (await ensureVendor(db, { slug: opts.vendor, name: opts.name, platform: platform.name }));
    const bar = progressBar(total);
    try {
      const summary = await importSnapshots(db, vendor, platform, snapshots, (done) => bar.update(done), undefined, { notify: opts.notify === true });
      bar.stop();
      printSummary(what, summary, skipped);
    } finally {
      bar.stop();
    }
  });
}

export async function runImport(dir: string, opts: ImportOptions): Promise<void> {
  requireSlug(opts.vendor);
  requirePlatform(opts.platform);
  const folder = listSnapshotFolder(dir);
  if (folder.snapshots.length === 0) throw new CliError(`no snapshot files in ${dir} (expected names like 20250401T085520Z__summary.json)`);
  await runSnapshots("import", opts, dir, folder.snapshots.length, folder.snapshots, folder.skipped);
}

export async function runImportGit(repoDir: string, pathInRepo: string, opts: ImportOptions): Promise<void> {
  requireSlug(opts.vendor);
  requirePlatform(opts.platform);
  const versions = listFileVersions(repoDir, pathInRepo);
  await runSnapshots("import-git", opts, `${repoDir}:${pathInRepo}`, versions.length, readFileVersions(repoDir, pathInRepo, versions), []);
}
