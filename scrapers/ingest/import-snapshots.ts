import fs from "node:fs";
import path from "node:path";
import type { RedlineDb } from "@/db/client";
import { countVendorVersions, lastObservation } from "@/db/record/record-capture";
import type { VendorRow } from "@/db/settings/vendors";
import type { ReadWarning } from "@/lib/derive/observation";
import { ingestSnapshot } from "@/scrapers/ingest/ingest-snapshot";
import { getPlatform } from "@/scrapers/platforms";
import type { Platform } from "@/scrapers/platforms/platform";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";

export class ImportError extends Error {
  readonly kind = "import";
}

/** `<YYYYMMDDTHHMMSSZ>__<name>`: capture time, then the endpoint's file name. */
const SNAPSHOT_NAME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z__(.+)$/;

export interface SnapshotSource {
  /** Where the body is read from, for error messages. */
  label: string;
  observedAt: string;
  /** The endpoint's name: what the snapshot is a version of. */
  source: string;
  read(): Uint8Array;
}

export interface SnapshotFolder {
  snapshots: SnapshotSource[];
  /** Files whose names do not follow the snapshot convention (manifests, notes). */
  skipped: string[];
}

/** The snapshot files of a folder in capture order; fails before anything is written if any is unreadable. */
export function listSnapshotFolder(dir: string): SnapshotFolder {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such folder" : code === "ENOTDIR" ? "not a folder" : (error as Error).message;
    throw new ImportError(`import: cannot read ${dir}: ${why}`, { cause: error });
  }
  const snapshots: SnapshotSource[] = [];
  const skipped: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const m = SNAPSHOT_NAME.exec(entry.name);
    if (!m) {
      skipped.push(entry.name);
      continue;
    }
    const file = path.join(dir, entry.name);
    try {
      if (!fs.statSync(file).isFile()) throw new Error("not a regular file");
      fs.accessSync(file, fs.constants.R_OK);
    } catch (error) {
      throw new ImportError(`import: cannot read ${file}: ${(error as Error).message}`, { cause: error });
    }
    const observedAt = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
    if (Number.isNaN(Date.parse(observedAt))) throw new ImportError(`import: impossible capture time in ${entry.name}`);
    snapshots.push({ label: file, observedAt, source: m[7] ?? entry.name, read: () => fs.readFileSync(file) });
  }
  return { snapshots, skipped };
}

export interface ImportSummary {
  captures: number;
  duplicates: number;
  versions: number;
  failed: number;
  invalid: number;
  /** Captures recorded with something unreadable in them, and how many things in all. */
  withWarnings: number;
  warnings: number;
  /** The first few of them, with the snapshot they are in. */
  sampleWarnings: Array<ReadWarning & { snapshot: string }>;
  rederived: boolean;
  elapsedMs: number;
}

const SAMPLE_WARNINGS = 5;

/**
 * Ingest snapshots in order, one transaction each. Snapshots older than the recorded history are
 * kept, and the re-derivation they call for runs at the end (the same background job a poller
 * would run), so the order of imports never matters. They notify subscriptions only with
 * `notify` (backfill floods no one), and then through the same outbox as polls.
 */
export async function importSnapshots(
  db: RedlineDb,
  vendor: VendorRow,
  platform: Platform,
  snapshots: Iterable<SnapshotSource> | AsyncIterable<SnapshotSource>,
  onProgress: (done: number) => void = () => {},
  resolvePlatform?: (name: string) => Platform | undefined,
  options: { notify?: boolean } = {},
): Promise<ImportSummary> {
  const started = performance.now();
  const summary: ImportSummary = {
    captures: 0, duplicates: 0, versions: 0, failed: 0, invalid: 0, withWarnings: 0, warnings: 0, sampleWarnings: [], rederived: false, elapsedMs: 0,
  };
  const versionsBefore = await countVendorVersions(db, vendor.id);
  // Snapshots past the vendor's last observation are not looked for before parsing: none can be recorded.
  const lastObserved = await lastObservation(db, vendor.id);
  let done = 0;
  for await (const snapshot of snapshots) {
    let body: Uint8Array;
    try {
      body = snapshot.read();
    } catch (error) {
      throw new ImportError(`import: cannot read ${snapshot.label}: ${(error as Error).message}`, { cause: error });
    }
    const result = await ingestSnapshot(
      db,
      { vendor, platform, source: snapshot.source, observedAt: snapshot.observedAt, body, notify: options.notify === true, fresh: lastObserved === null || snapshot.observedAt > lastObserved },
      resolvePlatform,
    );
    if (result.duplicate) summary.duplicates += 1;
    else {
      summary.captures += 1;
      if (result.outcome === "failed") summary.failed += 1;
      if (result.outcome === "invalid") summary.invalid += 1;
      if (result.warnings.length > 0) {
        summary.withWarnings += 1;
        summary.warnings += result.warnings.length;
        for (const w of result.warnings.slice(0, SAMPLE_WARNINGS - summary.sampleWarnings.length)) summary.sampleWarnings.push({ ...w, snapshot: snapshot.label });
      }
    }
    done += 1;
    onProgress(done);
  }
  const resolve = (name: string) => (name === platform.name ? platform : (resolvePlatform ?? getPlatform)(name));
  summary.rederived = (await runPendingJobs(db, { vendorId: vendor.id, resolve })) > 0;
  summary.versions = (await countVendorVersions(db, vendor.id)) - versionsBefore;
  summary.elapsedMs = performance.now() - started;
  return summary;
}
