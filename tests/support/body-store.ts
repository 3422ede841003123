import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { restoreBody, restoreCaptureBody } from "@/db/history/capture-bodies";
import type { RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { ensureVendor, type VendorRow } from "@/db/settings/vendors";
import { type ExportDocument, renderExportJson } from "@/lib/export-document";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { CORPUS_FOLDERS, corpusPath } from "@/tests/support/corpus-location";
import { queryRows } from "@/tests/support/database";

/** Import a corpus folder (or a slice of its snapshots, in capture order) into `db` as the CLI does; the vendor. */
export async function importCorpusFolder(db: RedlineDb, folder: string, options: { slug?: string; slice?: [number, number] } = {}): Promise<VendorRow> {
  const spec = CORPUS_FOLDERS.find((f) => f.folder === folder);
  const platform = spec && getPlatform(spec.platform);
  if (!spec || !platform) throw new Error(`unknown corpus folder ${folder}`);
  const vendor = await ensureVendor(db, { slug: options.slug ?? spec.vendor, platform: platform.name });
  const { snapshots } = listSnapshotFolder(corpusPath(folder));
  await importSnapshots(db, vendor, platform, options.slice ? snapshots.slice(...options.slice) : snapshots);
  return vendor;
}

/** Every capture that kept a body, with the hash recorded when it was taken. */
export function keptCaptures(db: RedlineDb): Promise<Array<{ id: number; hash: string }>> {
  return queryRows<{ id: number; hash: string }>(db, "SELECT id, hash FROM captures WHERE body_id IS NOT NULL ORDER BY id");
}

/** The sha256 of each kept capture's restored body, beside its recorded hash. */
export async function restoredHashes(db: RedlineDb): Promise<Array<{ id: number; recorded: string; restored: string | null }>> {
  const hashes = [];
  for (const { id, hash } of await keptCaptures(db)) {
    const body = await restoreCaptureBody(db, id);
    hashes.push({ id, recorded: hash, restored: body && createHash("sha256").update(body).digest("hex") });
  }
  return hashes;
}

export async function vendorExportJson(db: RedlineDb, slug: string): Promise<string> {
  const doc = await loadVendorExport(db, slug);
  if (!doc) throw new Error(`no export of ${slug}`);
  return renderExportJson(doc);
}

/**
 * A vendor's export without its component history: what a file of a layout from before component
 * states holds once migrated (the upgrade's re-derivation adds the components from the captures).
 */
export function incidentsOnly(doc: ExportDocument | undefined): ExportDocument | undefined {
  if (!doc) return doc;
  const { components: _components, quietDegradations: _quiet, ...rest } = doc;
  return rest;
}

export async function vendorIncidentsJson(db: RedlineDb, slug: string): Promise<string> {
  const doc = incidentsOnly(await loadVendorExport(db, slug));
  if (!doc) throw new Error(`no export of ${slug}`);
  return renderExportJson(doc);
}

export interface BodyRow {
  hash: string;
  encoding: string;
  depth: number;
  run: number;
  bytes: number;
  size: number;
}

/** The stored bodies in the order they were written, or only the one of `hash`; on either database. */
export function bodyRows(db: RedlineDb, hash?: string): Promise<BodyRow[]> {
  const columns = "encoding, depth, run, length(body) AS bytes, size FROM capture_bodies";
  const where = hash === undefined ? "" : { sqlite: "WHERE hash = unhex(?)", postgres: "WHERE hash = decode(?, 'hex')" };
  return queryRows<BodyRow>(
    db,
    {
      sqlite: `SELECT lower(hex(hash)) AS hash, ${columns} ${typeof where === "string" ? where : where.sqlite} ORDER BY id`,
      postgres: `SELECT encode(hash, 'hex') AS hash, ${columns} ${typeof where === "string" ? where : where.postgres} ORDER BY id`,
    },
    ...(hash === undefined ? [] : [hash]),
  );
}

/** Rewrite every stored body as the layout before deltas wrote it: whole, gzip level 1, no chain. */
export async function toLegacyLayout(db: RedlineDb): Promise<number> {
  const bodies: Array<{ hash: string; body: Buffer }> = [];
  for (const r of await bodyRows(db)) bodies.push({ hash: r.hash, body: await restoreBody(db, r.hash) });
  const write = db.$client.prepare<[Buffer, string]>(
    "UPDATE capture_bodies SET encoding = 'gzip', body = ?, base_id = NULL, depth = 0, chain_bytes = 0, run = 0, vendor_id = NULL, source_id = NULL, position = NULL WHERE hash = unhex(?)",
  );
  db.$client.transaction(() => {
    for (const { hash, body } of bodies) write.run(gzipSync(body, { level: 1 }), hash);
  })();
  return bodies.length;
}
