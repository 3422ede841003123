import type { RedlineDb } from "@/db/client";
import { describe, expect, it } from "vitest";
import { convertLegacyBodies, countLegacyBodies } from "@/db/history/body-conversion";
import { queueJob } from "@/db/operations/derivation-jobs";
import { runPendingJobs } from "@/scrapers/rederive/job-runner";
import { describeCorpus } from "@/tests/support/corpus";
import { bodyRows, importCorpusFolder, restoredHashes, toLegacyLayout, vendorExportJson } from "@/tests/support/body-store";
import { freshDatabase, queryRow } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

const storedBytes = async (db: RedlineDb) => (await bodyRows(db)).reduce((n, r) => n + r.bytes, 0);

// Bodies stored whole with gzip are found only in SQLite files from before deltas, and migrate converts them there alone.
const describeSqliteCorpus = testDatabaseDialect === "postgres" ? describe.skip : describeCorpus;

describeSqliteCorpus("converting raw bodies stored whole (gzip) to deltas (SQLite)", () => {
  it("keeps gzip rows readable, converts them in batches, and exports and re-derives identically after", async () => {
    const db = await freshDatabase();
    // Two vendors, so conversion follows each source's chain; the second shares some of the first's bodies.
    await importCorpusFolder(db, "statuspage-summary-github-2025");
    await importCorpusFolder(db, "statuspage-summary-github-2025", { slug: "github-mirror", slice: [150, 170] });
    await importCorpusFolder(db, "slack-current-2020");
    const legacy = await toLegacyLayout(db);
    expect(countLegacyBodies(db.$client)).toBe(legacy);
    const before = { github: await vendorExportJson(db, "github"), slack: await vendorExportJson(db, "slack"), mirror: (await vendorExportJson(db, "github-mirror")) };
    const gzipBytes = await storedBytes(db);
    for (const r of await restoredHashes(db)) expect(r.restored, `gzip capture ${r.id}`).toBe(r.recorded);

    const batches: number[] = [];
    const converted = await convertLegacyBodies(db, { batchBodies: 50, onBatch: ({ remaining }) => batches.push(remaining) });
    expect(converted).toBe(legacy);
    expect(countLegacyBodies(db.$client)).toBe(0);
    expect(batches.length).toBeGreaterThanOrEqual(Math.ceil(legacy / 50));
    expect(batches.at(-1)).toBe(0);
    for (const r of await restoredHashes(db)) expect(r.restored, `converted capture ${r.id}`).toBe(r.recorded);
    expect((await storedBytes(db)) * 3).toBeLessThan(gzipBytes);
    expect((await bodyRows(db)).some((r) => r.encoding === "zstd-delta")).toBe(true);
    expect({ github: await vendorExportJson(db, "github"), slack: await vendorExportJson(db, "slack"), mirror: (await vendorExportJson(db, "github-mirror")) }).toEqual(before);

    // Re-derived from the converted captures, the history is the same.
    for (const slug of ["github", "slack"]) {
      const vendor = await queryRow<{ id: number }>(db, "SELECT id FROM vendors WHERE slug = ?", slug);
      if (!vendor) throw new Error(`no vendor ${slug}`);
      await queueJob(db, vendor.id, "requested", null);
      await runPendingJobs(db, { vendorId: vendor.id });
    }
    expect({ github: await vendorExportJson(db, "github"), slack: await vendorExportJson(db, "slack"), mirror: (await vendorExportJson(db, "github-mirror")) }).toEqual(before);
    // Nothing left to convert: a second run is a no-op.
    expect(await convertLegacyBodies(db)).toBe(0);
  });
});

describe.skipIf(testDatabaseDialect === "postgres")("converting a database that never stored a body (SQLite)", () => {
  it("converts nothing", async () => {
    const db = await freshDatabase();
    expect(await convertLegacyBodies(db)).toBe(0);
  });
});
