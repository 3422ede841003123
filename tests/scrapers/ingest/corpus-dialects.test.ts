import { afterAll, beforeAll, expect, it } from "vitest";
import { closeDatabase, closeStore, openDatabase, openStore, type RedlineDb } from "@/db/client";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { vendorExportJson } from "@/tests/support/body-store";
import { CORPUS_FOLDERS, corpusAvailable, corpusPath, describeCorpus } from "@/tests/support/corpus";
import { describePostgres, withPostgresDatabase } from "@/tests/support/postgres";

/** Every folder of the corpus imported into `db`, each as its vendor, in the listed order. */
async function importCorpus(db: RedlineDb): Promise<void> {
  for (const spec of CORPUS_FOLDERS) {
    const platform = getPlatform(spec.platform);
    if (!platform) throw new Error(`no platform ${spec.platform}`);
    const vendor = await ensureVendor(db, { slug: spec.vendor, platform: platform.name });
    await importSnapshots(db, vendor, platform, listSnapshotFolder(corpusPath(spec.folder)).snapshots);
  }
}

// Both databases are this test's own, whichever the suite runs on: it compares the two.
describeCorpus("the corpus imported into SQLite and into PostgreSQL", () => {
  describePostgres("gives byte-identical exports", () => {
    const database = withPostgresDatabase({ prefix: "corpus_dialects" });
    let sqlite: RedlineDb;
    let pg: RedlineDb;

    beforeAll(async () => {
      sqlite = openDatabase(":memory:");
      pg = await openStore(database.url);
      await importCorpus(sqlite);
      await importCorpus(pg);
    }, 600_000);

    afterAll(async () => {
      if (sqlite) closeDatabase(sqlite);
      if (pg) await closeStore(pg);
    });

    for (const { folder, vendor } of CORPUS_FOLDERS) {
      it(`exports ${vendor} (${folder}) byte for byte the same`, async () => {
        expect(corpusAvailable).toBe(true);
        const expected = await vendorExportJson(sqlite, vendor);
        expect(expected.length).toBeGreaterThan(1_000);
        expect(await vendorExportJson(pg, vendor)).toBe(expected);
      });
    }
  });
});
