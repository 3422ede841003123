import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { loadVendorExport } from "@/db/queries/incident-history";
import { incidentsOnly } from "@/tests/support/body-store";
import { packVersionContent, unpackVersionContent, VersionContentError, versionContentPending } from "@/db/history/version-content";
import { ensureVendor } from "@/db/settings/vendors";
import { importSnapshots, listSnapshotFolder } from "@/scrapers/ingest/import-snapshots";
import { getPlatform } from "@/scrapers/platforms";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { versionTexts, writeLayoutBeforeVersionContent } from "@/tests/support/content-layout";
import { corpusAvailable, corpusPath } from "@/tests/support/corpus";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-version-content-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const CORPUS_NOTE = corpusAvailable ? "" : " (lifecycle fixture only: corpus not found, set REDLINE_CORPUS)";

async function archive(file: string): Promise<RedlineDb> {
  const db = openDatabase(file);
  await archiveAcmeLifecycle(db);
  if (corpusAvailable) {
    const platform = getPlatform("statuspage-summary");
    if (!platform) throw new Error("no statuspage-summary platform");
    await importSnapshots(db, await ensureVendor(db, { slug: "jira", name: "Jira", platform: platform.name }), platform, listSnapshotFolder(corpusPath("statuspage-summary-jira")).snapshots);
  }
  return db;
}

interface Expected {
  exports: Map<string, string>;
  texts: string;
  kinds: string;
  versions: number;
}

async function expectationsOf(db: RedlineDb): Promise<Expected> {
  const slugs = db.$client.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY slug").all().map((r) => r.slug);
  const exports = new Map<string, string>();
  for (const slug of slugs) exports.set(slug, JSON.stringify(incidentsOnly(await loadVendorExport(db, slug))));
  return {
    exports,
    texts: await versionTexts(db),
    kinds: JSON.stringify(db.$client.prepare("SELECT * FROM version_kinds ORDER BY version_id, kind").all()),
    versions: db.$client.prepare<[], { n: number }>("SELECT count(*) AS n FROM incident_versions").get()?.n ?? 0,
  };
}

async function expectSame(db: RedlineDb, expected: Expected): Promise<void> {
  expect(versionContentPending(db.$client)).toBe(false);
  for (const [slug, json] of expected.exports) expect(JSON.stringify(incidentsOnly(await loadVendorExport(db, slug))), slug).toBe(json);
  expect(await versionTexts(db)).toBe(expected.texts);
  // Row ids are kept: version_kinds still points at the same versions.
  expect(JSON.stringify(db.$client.prepare("SELECT * FROM version_kinds ORDER BY version_id, kind").all())).toBe(expected.kinds);
}

const columnsOf = (sqlite: Database.Database) => sqlite.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('incident_versions')").all().map((c) => c.name);

describe("a version's content", () => {
  it("reads back what was packed, in fewer bytes than its JSON, and refuses a frame of an unknown format", () => {
    const content = {
      changes: [{ field: "status" as const, kind: "changed" as const, before: "investigating", after: "identified" }],
      summary: "Acme reported a minor incident affecting API, starting at 2025-01-01 00:00 UTC; status identified. Status changed from investigating to identified.",
      headline: "Status changed from investigating to identified.",
      title: "Elevated API errors",
      impact: "minor",
      incidentKind: "incident",
    };
    const packed = packVersionContent(content);
    expect(unpackVersionContent(packed)).toEqual(content);
    expect(packed.length).toBeLessThan(JSON.stringify(content).length / 2);
    const other = Buffer.from(packed);
    other[0] = 9;
    expect(() => unpackVersionContent(other)).toThrow(VersionContentError);
  });
});

// Only SQLite files of earlier Redlines have the previous layouts: PostgreSQL support began after them.
describe("migrating versions that keep their changes and text in columns of their own (SQLite)", () => {
  it(`packs them in place: every export, list, page and version detail reads the same, row ids and triggers kept${CORPUS_NOTE}`, async () => {
    const source = await archive(path.join(dir, "source.db"));
    const expected = await expectationsOf(source);
    const file = writeLayoutBeforeVersionContent(source, dir);
    closeDatabase(source);
    const old = new Database(file, { readonly: true });
    expect(versionContentPending(old)).toBe(true);
    expect(columnsOf(old)).toEqual(expect.arrayContaining(["changes", "summary", "headline", "title"]));
    const forms = old.prepare<[], { form: string }>("SELECT DISTINCT typeof(changes) AS form FROM incident_versions ORDER BY form").all().map((r) => r.form);
    expect(forms).toContain("text");
    if (corpusAvailable) expect(forms).toContain("blob");
    const sequence = old.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'incident_versions'").get();
    old.close();

    const migrated = openDatabase(file);
    expect(columnsOf(migrated.$client)).not.toContain("summary");
    await expectSame(migrated, expected);
    expect(migrated.$client.prepare("SELECT count(*) AS n FROM incident_versions").get()).toEqual({ n: expected.versions });
    expect(migrated.$client.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'incident_versions'").get()).toEqual(sequence);
    const triggers = migrated.$client.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'incident_versions' ORDER BY name").all();
    expect(triggers.map((t) => t.name)).toEqual(["archive_revision_version_delete", "archive_revision_version_insert", "archive_revision_version_update", "versions_search_delete"]);
    const revision = () => migrated.$client.prepare<[], { revision: number }>("SELECT revision FROM archive_revision WHERE id = 1").get()?.revision;
    const before = revision();
    migrated.$client.prepare("UPDATE incident_versions SET text_version = text_version WHERE id = (SELECT min(id) FROM incident_versions)").run();
    expect(revision()).toBe((before ?? 0) + 1);
    closeDatabase(migrated);
  }, 120_000);

  it(`is finished by a second migrate after the first is killed once it reports the conversion${CORPUS_NOTE}`, async () => {
    const crashDir = fs.mkdtempSync(path.join(dir, "crash-"));
    const source = await archive(path.join(crashDir, "source.db"));
    const expected = await expectationsOf(source);
    const file = writeLayoutBeforeVersionContent(source, crashDir);
    closeDatabase(source);

    const run = () => {
      const child = spawn(process.execPath, [REDLINE_BUNDLE, "migrate", "--db", file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      return { child, watched: watchProcess(child) };
    };
    const first = run();
    await first.watched.until("the version conversion reported", () => first.watched.stdout.some((l) => l.startsWith("versions: packing")));
    first.child.kill("SIGKILL");
    await first.watched.exited;
    const backup = first.watched.stdout.map((l) => /^backed up .* to (\S+) \(/.exec(l)).find((m) => m !== null)?.[1] ?? "";
    const kept = new Database(backup, { readonly: true, fileMustExist: true });
    expect(versionContentPending(kept)).toBe(true);
    kept.close();

    // The conversion is one transaction: the kill leaves the old layout whole, or the new one whole.
    const crashed = openDatabase(file, { migrate: false });
    expect(crashed.$client.pragma("integrity_check", { simple: true })).toBe("ok");
    if (!versionContentPending(crashed.$client)) {
      for (const r of crashed.$client.prepare<[], { content: Buffer }>("SELECT content FROM incident_versions").all()) expect(() => unpackVersionContent(r.content)).not.toThrow();
    }
    closeDatabase(crashed);

    const second = run();
    const exit = await second.watched.exited;
    expect(exit.code, second.watched.stderr.join("\n")).toBe(0);
    expect(second.watched.stdout).toContain(`migrated ${file}`);
    const done = openDatabase(file);
    await expectSame(done, expected);
    closeDatabase(done);
  }, 180_000);
});
