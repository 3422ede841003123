import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { closeDatabase, openDatabase, type RedlineDb } from "@/db/client";
import { archiveAcmeLifecycle } from "@/tests/support/acme-archive";
import { importCorpusFolder, keptCaptures, restoredHashes, vendorIncidentsJson } from "@/tests/support/body-store";
import { corpusAvailable } from "@/tests/support/corpus";
import { layoutBeforeRawRowsFile, rawRowsStatements, writeLayoutBeforeRawRows } from "@/tests/support/raw-rows-layout";

async function archive(dir: string): Promise<RedlineDb> {
  const db = openDatabase(path.join(dir, "source.db"));
  await archiveAcmeLifecycle(db);
  if (corpusAvailable) await importCorpusFolder(db, "statuspage-summary-github-2025", { slug: "github" });
  return db;
}

const slugsOf = (db: RedlineDb) => db.$client.prepare<[], { slug: string }>("SELECT slug FROM vendors ORDER BY slug").all().map((r) => r.slug);
const columnsOf = (sqlite: Database.Database, table: string) =>
  sqlite.prepare<[], { name: string; type: string }>(`SELECT name, type FROM pragma_table_info('${table}')`).all().map((c) => `${c.name} ${c.type.toLowerCase()}`);

/** What the old layout's rows say of each capture's body: the hex hash it points at. */
function oldBodyPointers(file: string): Array<{ id: number; bodyHash: string | null }> {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.prepare<[], { id: number; bodyHash: string | null }>("SELECT id, body_hash AS bodyHash FROM captures ORDER BY id").all();
  } finally {
    sqlite.close();
  }
}

// Only SQLite files of earlier Redlines have the previous layouts: PostgreSQL support began after them.
describe("migrating the raw layer to integer body ids (SQLite)", () => {
  const label = corpusAvailable ? "" : " (lifecycle fixture only: corpus not found, set REDLINE_CORPUS)";

  it(`exports every vendor identically and restores every capture to its recorded hash${label}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-raw-rows-"));
    const source = await archive(dir);
    const slugs = slugsOf(source);
    const expected = new Map(await Promise.all(slugs.map(async (slug) => [slug, await vendorIncidentsJson(source, slug)] as const)));
    const kept = await keptCaptures(source);
    expect(kept.length).toBeGreaterThan(0);
    const file = layoutBeforeRawRowsFile(dir);
    writeLayoutBeforeRawRows(source, file);
    closeDatabase(source);
    // The file really is of the old layout: hex hashes, and captures pointing at bodies by them.
    const pointers = oldBodyPointers(file);
    expect(pointers.filter((p) => p.bodyHash !== null).map((p) => p.id)).toEqual(kept.map((k) => k.id));

    const migrated = openDatabase(file);
    expect(columnsOf(migrated.$client, "capture_bodies")).toContain("hash blob");
    expect(columnsOf(migrated.$client, "capture_bodies")).not.toContain("base_hash text");
    expect(migrated.$client.prepare("SELECT count(*) AS n FROM captures WHERE body_hash IS NOT NULL").get()).toEqual({ n: 0 });
    expect(await keptCaptures(migrated)).toEqual(kept);
    for (const r of await restoredHashes(migrated)) expect(r.restored).toBe(r.recorded);
    for (const slug of slugs) expect(await vendorIncidentsJson(migrated, slug)).toBe(expected.get(slug));
    expect(migrated.$client.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    // Deleting a body looks for captures naming it in the retired column as well: an index probe, not a scan.
    const plan = migrated.$client.prepare<[string], { detail: string }>("EXPLAIN QUERY PLAN SELECT 1 FROM captures WHERE body_hash = ?").all("x");
    expect(plan.map((p) => p.detail).join("; ")).toMatch(/USING (COVERING )?INDEX captures_retired_body_hash/);
    closeDatabase(migrated);
  });

  it("finishes on the next open after a crash in the middle of the conversion", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-raw-rows-crash-"));
    const source = await archive(dir);
    const slugs = slugsOf(source);
    const expected = new Map(await Promise.all(slugs.map(async (slug) => [slug, await vendorIncidentsJson(source, slug)] as const)));
    const kept = await keptCaptures(source);
    const file = layoutBeforeRawRowsFile(dir);
    writeLayoutBeforeRawRows(source, file);
    closeDatabase(source);
    const before = oldBodyPointers(file);

    // Half the migration's statements run, then the process dies: its transaction never commits.
    const statements = rawRowsStatements();
    const half = Math.ceil(statements.length / 2);
    const crashing = new Database(file);
    crashing.pragma("foreign_keys = ON");
    crashing.exec("BEGIN");
    for (const statement of statements.slice(0, half)) crashing.exec(statement);
    expect(columnsOf(crashing, "captures")).toContain("body_id integer");
    crashing.close();

    expect(oldBodyPointers(file)).toEqual(before);
    const migrated = openDatabase(file);
    expect(await keptCaptures(migrated)).toEqual(kept);
    for (const r of await restoredHashes(migrated)) expect(r.restored).toBe(r.recorded);
    for (const slug of slugs) expect(await vendorIncidentsJson(migrated, slug)).toBe(expected.get(slug));
    closeDatabase(migrated);
  });
});
