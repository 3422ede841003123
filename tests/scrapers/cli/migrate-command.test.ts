import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { versionLayoutPending } from "@/db/history/layout/convert-versions";
import { sideTablesPending } from "@/db/history/layout/side-tables";
import { loadVendorExport } from "@/db/queries/incident-history";
import { searchTextPending } from "@/db/search/search-text";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { countRows } from "@/tests/support/database";
import { copyArchiveInto, fileBeforeMigration, previousLayoutFile, writePreviousLayout } from "@/tests/support/previous-layout";
import { checkSearchIndex, queriesFrom, searchAnswers, writeLayoutBeforeSearchText } from "@/tests/support/search-layout";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

function migrateCli(file: string) {
  return spawnSync(process.execPath, [REDLINE_BUNDLE, "migrate", "--db", file], { cwd: process.cwd(), encoding: "utf8" });
}

/** Migrate `file` by the CLI: its backup still holds the layout `pending` finds, the file no longer does and has no free pages. */
function migrateInPlace(file: string, pending: (sqlite: Database.Database) => boolean): RedlineDb {
  const run = migrateCli(file);
  expect(run.status, run.stderr).toBe(0);
  const backup = /backed up \S+ to (\S+) \(/.exec(run.stdout)?.[1];
  expect(backup, run.stdout).toBeDefined();
  const kept = new Database(backup ?? "", { readonly: true, fileMustExist: true });
  expect(pending(kept)).toBe(true);
  kept.close();
  const db = openDatabase(file);
  expect(pending(db.$client)).toBe(false);
  expect(db.$client.pragma("freelist_count", { simple: true })).toBe(0);
  return db;
}

// Only SQLite files of earlier Redlines have the previous layouts: PostgreSQL support began after them.
describe("redline migrate on a SQLite file of the previous layout (SQLite)", () => {
  it("backs the file up, says where, converts it in place, and does neither again on a converted one", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-migrate-"));
    const source = openDatabase(path.join(dir, "source.db"));
    await archiveAcmeLifecycle(source);
    const expected = JSON.stringify(await loadVendorExport(source, "acme"));
    const file = previousLayoutFile(dir);
    await writePreviousLayout(source, file);
    const versions = await countRows(source, "incident_versions");
    closeDatabase(source);

    const first = migrateCli(file);
    expect(first.stderr).not.toMatch(/VACUUM failed/);
    expect(first.status).toBe(0);
    const backup = /backed up \S+ to (\S+) \(/.exec(first.stdout)?.[1];
    expect(backup, first.stdout).toBeDefined();
    const kept = new Database(backup ?? "", { readonly: true, fileMustExist: true });
    const columns = kept.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('incident_versions')").all().map((c) => c.name);
    expect(columns).toContain("snapshot");
    expect(columns).not.toContain("patch");
    expect(kept.prepare("SELECT count(*) AS n FROM incident_versions WHERE snapshot IS NOT NULL").get()).toEqual({ n: versions });
    kept.close();
    expect(first.stdout).toMatch(/versions kept as patches: \d+ versions and \d+ record states rewritten/);
    const db = openDatabase(file);
    expect(versionLayoutPending(db.$client)).toBe(false);
    expect(JSON.stringify(await loadVendorExport(db, "acme"))).toBe(expected);
    closeDatabase(db);

    const second = migrateCli(file);
    expect(second.status).toBe(0);
    expect(second.stdout).not.toMatch(/backed up|kept as patches/);
    expect(second.stdout).toContain(`migrated ${file}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe("redline migrate on a SQLite file whose search index keeps a plain copy of its text (SQLite)", () => {
  it("backs the file up, moves the text into its compressed table, frees the space, and searches the same", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-migrate-search-"));
    const source = openDatabase(path.join(dir, "source.db"));
    await archiveAcmeLifecycle(source);
    const queries = queriesFrom(source, 20);
    const expected = await searchAnswers(source, queries, "acme");
    const file = writeLayoutBeforeSearchText(source, dir);
    closeDatabase(source);

    const db = migrateInPlace(file, searchTextPending);
    checkSearchIndex(db);
    expect(await searchAnswers(db, queries, "acme")).toBe(expected);
    closeDatabase(db);
    expect(migrateCli(file).stdout).not.toMatch(/backed up/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe("redline migrate on a SQLite file of the side tables' previous layout (SQLite)", () => {
  it("backs the file up, rebuilds the side tables in place, frees the space, and exports the same", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-migrate-side-"));
    const source = openDatabase(path.join(dir, "source.db"));
    await archiveAcmeLifecycle(source);
    const expected = JSON.stringify(await loadVendorExport(source, "acme"));
    const file = fileBeforeMigration(dir, "side_tables");
    copyArchiveInto(file, source);
    closeDatabase(source);

    const db = migrateInPlace(file, sideTablesPending);
    expect(JSON.stringify(await loadVendorExport(db, "acme"))).toBe(expected);
    closeDatabase(db);
    expect(migrateCli(file).stdout).not.toMatch(/backed up/);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
