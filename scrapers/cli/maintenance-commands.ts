import fs from "node:fs";
import Database from "better-sqlite3";
import { backupDatabase, restoreDatabase } from "@/db/operations/backup";
import { convertLegacyBodies, countLegacyBodies, rawRowsPending } from "@/db/history/body-conversion";
import { convertVersionLayout, versionLayoutPending } from "@/db/history/layout/convert-versions";
import { sideTablesPending } from "@/db/history/layout/side-tables";
import { searchTextPending } from "@/db/search/search-text";
import { versionContentPending } from "@/db/history/version-content";
import { rerenderVersionTexts } from "@/db/history/version-text";
import { DatabaseError, isDatabaseUrl, redact } from "@/db/client";
import { type DerivationJob, getJob, listRecentJobs, queueJob } from "@/db/operations/derivation-jobs";
import { getVendorBySlug } from "@/db/settings/vendors";
import { CliError, resolveDbPath, withDatabase } from "@/scrapers/cli/cli-context";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";

/** Whether the database file holds data an in-place conversion would rewrite, and whether its versions' content is among it. */
export function conversionPending(file: string): { any: boolean; versionContent: boolean } {
  if (!fs.existsSync(file)) return { any: false, versionContent: false };
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const has = (table: string) => sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
    const versionContent = has("incident_versions") && versionContentPending(sqlite);
    const any =
      versionContent ||
      (has("incident_versions") && versionLayoutPending(sqlite)) ||
      (has("capture_bodies") && (rawRowsPending(sqlite) || countLegacyBodies(sqlite) > 0)) ||
      searchTextPending(sqlite) ||
      sideTablesPending(sqlite);
    return { any, versionContent };
  } finally {
    sqlite.close();
  }
}

export async function runMigrate(opts: { db?: string; bodyBatch?: string }): Promise<void> {
  const batchBodies = opts.bodyBatch === undefined ? undefined : Number(opts.bodyBatch);
  if (batchBodies !== undefined && (!Number.isInteger(batchBodies) || batchBodies < 1)) throw new CliError(`--body-batch must be a whole number of bodies, not ${JSON.stringify(opts.bodyBatch)}`);
  const file = resolveDbPath(opts);
  if (isDatabaseUrl(file)) {
    // Opening applies PostgreSQL's migrations; the conversions below rewrite layouts only earlier SQLite files have.
    await withDatabase("migrate", opts, () => undefined);
    process.stdout.write(`migrated ${redact(file)}\n`);
    return;
  }
  const { any: pending, versionContent: contentPending } = conversionPending(file);
  if (pending) {
    const target = `${file}.before-migrate-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    const backup = await backupDatabase(file, target);
    process.stdout.write(`backed up ${file} to ${backup.file} (${(backup.bytes / 1e6).toFixed(1)} MB) before converting it\n`);
    if (contentPending) process.stdout.write("versions: packing each version's changes and text into its content, in one transaction (a crash leaves the file as it was)\n");
  }
  await withDatabase("migrate", opts, async (db) => {
    const legacy = countLegacyBodies(db.$client);
    if (legacy > 0) {
      const converted = await convertLegacyBodies(db, {
        batchBodies,
        onBatch: ({ converted: done, remaining }) => process.stdout.write(`converted ${done} raw bodies to deltas, ${remaining} to go\n`),
      });
      process.stdout.write(`raw bodies: ${converted} converted to deltas; every body is in the delta layout\n`);
    }
    const versions = await convertVersionLayout(db, {
      onBatch: (p) => process.stderr.write(`versions: ${p.incidents} incidents looked at, ${p.versionsRewritten} versions and ${p.statesRewritten} record states rewritten\n`),
    });
    const texts = await rerenderVersionTexts(db);
    // Opening the file applied the SQL migrations: a search index that moved its text, or rebuilt side tables, left free pages too.
    if (pending || legacy > 0 || versions.versionsRewritten + versions.statesRewritten > 0) {
      if (versions.versionsRewritten + versions.statesRewritten > 0) {
        process.stdout.write(`versions kept as patches: ${versions.versionsRewritten} versions and ${versions.statesRewritten} record states rewritten\n`);
      }
      try {
        db.$client.exec("VACUUM");
      } catch (error) {
        // The conversion is complete either way; only the file's free pages stay until a VACUUM.
        process.stderr.write(`migrate: the file keeps its freed space (VACUUM failed: ${(error as Error).message}); run VACUUM on it with Redline stopped\n`);
      }
    }
    if (texts > 0) process.stdout.write(`summaries rendered again: ${texts} versions\n`);
    process.stdout.write(`migrated ${file}\n`);
  });
}

function describeJob(job: DerivationJob): string {
  const done = job.status === "swapping" ? `${job.incidentsSwapped} incidents swapped in` : `${job.capturesDone}/${job.capturesTotal} captures`;
  const end = job.status === "failed" ? `: ${job.error ?? "failed"}` : "";
  return `${job.vendorSlug}: ${job.status} (${job.reason}), ${done}${end}, updated ${job.updatedAt}`;
}

/** Rebuild a vendor's history in the foreground, or show the re-derivation jobs. */
export async function runRederive(opts: { vendor?: string; status?: boolean; db?: string }): Promise<void> {
  await withDatabase("rederive", opts, async (db) => {
    if (opts.status || !opts.vendor) {
      const jobs = await listRecentJobs(db);
      if (jobs.length === 0) process.stdout.write("no re-derivation jobs\n");
      for (const job of jobs) process.stdout.write(`${describeJob(job)}\n`);
      return;
    }
    const vendor = await getVendorBySlug(db, opts.vendor);
    if (!vendor) throw new CliError(`unknown vendor ${JSON.stringify(opts.vendor)}`);
    const job = await queueJob(db, vendor.id, "requested", null);
    let last = 0;
    await runPendingJobs(db, {
      vendorId: vendor.id,
      log: (line) => process.stderr.write(`${line}\n`),
      onProgress: (p) => {
        if (Date.now() - last < 1_000) return;
        last = Date.now();
        process.stderr.write(`${describeJob(p)}\n`);
      },
    });
    const after = await getJob(db, job.id);
    if (after && after.status !== "done") {
      // Another process (a running poller) holds it: it goes on there.
      process.stdout.write(`${describeJob(after)}; it is being run by ${after.leaseOwner ?? "another process"}\n`);
      return;
    }
    const versions = (await db.connection.prepare<[number], { n: number }>("SELECT count(*) AS n FROM incident_versions WHERE vendor_id = ?").get(vendor.id))?.n ?? 0;
    process.stdout.write(`rederived ${vendor.slug}: ${after?.capturesDone ?? 0} captures, ${versions} versions\n`);
  });
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
