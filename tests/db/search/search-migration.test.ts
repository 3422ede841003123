import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { backupDatabase, restoreDatabase } from "@/db/operations/backup";
import { SNIPPET_CLOSE, SNIPPET_OPEN } from "@/db/queries/search";
import { unpackSearchText } from "@/db/search/search-text";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { vendorIncidentsJson } from "@/tests/support/body-store";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { countRows } from "@/tests/support/database";
import { platformNamed } from "@/tests/support/parsing";
import { checkSearchIndex, editedAwayQueries, queriesFrom, searchAnswers, writeLayoutBeforeSearchText } from "@/tests/support/search-layout";

const isMarked = (snippet: string) => snippet.includes(SNIPPET_OPEN) && snippet.indexOf(SNIPPET_CLOSE) > snippet.indexOf(SNIPPET_OPEN);

const plainText = (db: RedlineDb) =>
  db.$client.prepare<[], { id: number; title: string; updates: string; postmortem: string }>("SELECT rowid AS id, title, updates, postmortem FROM incident_search ORDER BY rowid").all();

/**
 * The archive searched as it is, then as a copy of the layout before (FTS5 with its own copy of
 * the text), then that copy migrated in place: the answers must be the same all three times.
 */
async function expectSameSearchAcrossLayouts(dir: string, source: RedlineDb, vendor: string, queries: readonly string[]): Promise<void> {
  const expected = await searchAnswers(source, queries, vendor);
  const parsed = JSON.parse(expected) as Array<{ hits: { hits: Array<{ snippet: string; earlierSeq: number | null }> } }>;
  // The queries find things, with marked snippets: a comparison of empty answers would prove nothing.
  expect(parsed.filter((a) => a.hits.hits.length > 0).length).toBeGreaterThan(queries.length / 2);
  expect(parsed.flatMap((a) => a.hits.hits).every((h) => isMarked(h.snippet))).toBe(true);
  // Some are found only in text since edited away, which the migration must fill in for older files.
  expect(parsed.flatMap((a) => a.hits.hits).some((h) => h.earlierSeq !== null)).toBe(true);

  const file = writeLayoutBeforeSearchText(source, dir);
  const before = openDatabase(file, { migrate: false });
  expect(before.$client.prepare("SELECT 1 FROM sqlite_master WHERE name = 'incident_search_content'").get()).toBeDefined();
  expect(before.$client.prepare("SELECT 1 FROM sqlite_master WHERE name = 'incident_search_text'").get()).toBeUndefined();
  expect(await searchAnswers(before, queries, vendor, { changes: false, earlier: false })).toBe(await searchAnswers(source, queries, vendor, { changes: false, earlier: false }));
  const text = plainText(before);
  closeDatabase(before);

  const migrated = openDatabase(file);
  expect(migrated.$client.prepare("SELECT 1 FROM sqlite_master WHERE name = 'incident_search_content'").get()).toBeUndefined();
  expect(await countRows(migrated, "incident_search_text")).toBe(text.length);
  const stored = migrated.$client.prepare<[], { id: number; body: Buffer }>("SELECT incident_id AS id, body FROM incident_search_text ORDER BY incident_id").all();
  expect(stored.map((r) => ({ id: r.id, ...Object.fromEntries(unpackSearchText(r.body).map((f, i) => [["title", "updates", "postmortem"][i], f])) }))).toEqual(text);
  checkSearchIndex(migrated);
  expect(await searchAnswers(migrated, queries, vendor)).toBe(expected);
  expect(await vendorIncidentsJson(migrated, vendor)).toBe(await vendorIncidentsJson(source, vendor));
  closeDatabase(migrated);
}

describe("search before and after the text was compressed", () => {
  it("answers every query on the lifecycle fixture the same in the previous layout, the new one and a migrated copy", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-search-"));
    const source = openDatabase(path.join(dir, "source.db"));
    await archiveAcmeLifecycle(source);
    await expectSameSearchAcrossLayouts(dir, source, "acme", [...queriesFrom(source, 20), "postmortem", "resolved", "degrad*", "investigating failed", "limiter"]);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("restores a backup of the new layout that searches the same and passes the index's integrity check", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-search-backup-"));
    const live = path.join(dir, "live.db");
    const source = openDatabase(live);
    await archiveAcmeLifecycle(source);
    const answers = await searchAnswers(source, queriesFrom(source, 10), "acme");
    closeDatabase(source);
    await backupDatabase(live, path.join(dir, "copy.db"));
    await restoreDatabase(path.join(dir, "copy.db"), live);
    const restored = openDatabase(live);
    checkSearchIndex(restored);
    expect(await searchAnswers(restored, queriesFrom(restored, 10), "acme")).toBe(answers);
    closeDatabase(restored);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describeCorpus("search before and after on a real history", () => {
  it("answers every query on AWS's 2021-12 history the same in the previous layout, the new one and a migrated copy", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-search-aws-"));
    const source = openDatabase(path.join(dir, "source.db"));
    const platform = platformNamed("aws-legacy");
    const vendor = await ensureVendor(source, { slug: "aws", name: "AWS", platform: platform.name });
    await importSnapshots(source, vendor, platform, listSnapshotFolder(corpusPath("aws-data-json-2021-12")).snapshots);
    expect(await countRows(source, "incident_search_text")).toBeGreaterThan(400);
    checkSearchIndex(source);
    await expectSameSearchAcrossLayouts(dir, source, "aws", [...queriesFrom(source, 60), ...editedAwayQueries(source, 20), "outage", "elevated error rates", "us-east-1", "connectivity"]);
    closeDatabase(source);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
