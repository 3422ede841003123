import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { closeStore, isDatabaseUrl, openStore, type RedlineDb } from "@/db/client";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { countRows, freshLocation, queryRow, queryRows } from "@/tests/support/database";
import { childGone, exitOf, waitFor } from "@/tests/support/observe";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

/**
 * Imports killed with SIGKILL again and again, each time after watching it record a different
 * number of captures, then finished: the database stays intact and its history is exactly a
 * clean import's. Each capture is recorded in one transaction, and a re-run recognises what was
 * recorded before the kill.
 */
const ROOT = path.resolve(__dirname, "..", "..", "..");
const FOLDER = "statuspage-summary-jira";
/**
 * How many captures each round must add before it is killed; 0 kills as soon as the import has
 * begun (the SQLite file exists, or the import has connected), in start-up and migrations. They
 * add up to well under the folder's 300 captures, so every kill lands before the import could
 * have finished.
 */
const KILL_AFTER_MORE_CAPTURES = [0, 1, 37, 23, 51, 11, 44];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-crash-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runImport(location: string): ChildProcess {
  return spawn(
    process.execPath,
    [REDLINE_BUNDLE, "import", corpusPath(FOLDER), "--vendor", "jira", "--platform", "statuspage-summary", "--db", location],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
}

/** The test's connections to the archives its imports write, closed after the file's tests. */
const readers: RedlineDb[] = [];
afterAll(async () => {
  for (const db of readers.splice(0)) await closeStore(db);
});

/**
 * An archive the imports make (no migrations applied), and a connection of the test's own to it.
 * On SQLite the connection opens once the file exists, read-write: a writer killed
 * mid-transaction can leave a WAL whose index must be rebuilt first, which a read-only one may not do.
 */
async function emptyArchive(name: string) {
  const location = await freshLocation(dir, { name, migrated: false });
  let db: RedlineDb | null = null;
  const connection = async (): Promise<RedlineDb | null> => {
    if (db === null && (isDatabaseUrl(location) || fs.existsSync(location))) {
      db = await openStore(location, { migrate: false });
      readers.push(db);
    }
    return db;
  };
  return { location, connection };
}

type Archive = Awaited<ReturnType<typeof emptyArchive>>;

/** A kill during migrations leaves no tables: nothing recorded yet. */
async function migrated(db: RedlineDb): Promise<boolean> {
  const row = await queryRow<{ n: number }>(db, {
    sqlite: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'captures'",
    postgres: "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'captures'",
  });
  return (row?.n ?? 0) > 0;
}

async function capturesIn(archive: Archive): Promise<number> {
  const db = await archive.connection();
  return db !== null && (await migrated(db)) ? countRows(db, "captures") : 0;
}

/** Whether the import has begun on the archive: its SQLite file exists, or it has connected to the PostgreSQL database. */
async function importBegun(archive: Archive): Promise<boolean> {
  if (!isDatabaseUrl(archive.location)) return fs.existsSync(archive.location);
  const db = await archive.connection();
  if (db === null) return false;
  const others = await queryRow<{ n: number }>(db, "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()");
  return (others?.n ?? 0) > 0;
}

/** The whole recorded history, one line a capture and a version. */
async function history(archive: Archive): Promise<{ captures: string[]; versions: string[] }> {
  const db = await archive.connection();
  if (db === null || !(await migrated(db))) return { captures: [], versions: [] };
  const lines = async (sql: string) => (await queryRows<{ line: string }>(db, sql)).map((r) => r.line);
  return {
    captures: await lines("SELECT source || ' ' || observed_at || ' ' || outcome || ' ' || hash || ' ' || version_count AS line FROM captures ORDER BY line"),
    versions: await lines(
      `SELECT i.provider_id || ' #' || v.seq || ' ' || v.observed_at || ' ' || v.hash || ' ' || v.kinds AS line
       FROM incident_versions v JOIN incidents i ON i.id = v.incident_id ORDER BY line`,
    ),
  };
}

/** Runs the import again and again, killing each round with SIGKILL once it has recorded its `more` captures. */
async function killRounds(archive: Archive, kills: number[], afterKill: (round: number, target: number) => Promise<void>): Promise<void> {
  for (const [round, more] of kills.entries()) {
    const target = (await capturesIn(archive)) + more;
    const child = runImport(archive.location);
    const exit = exitOf(child);
    const reached = more === 0 ? () => importBegun(archive) : async () => (await capturesIn(archive)) >= target;
    await waitFor(`round ${round}'s import to record ${target} captures`, reached, () => childGone(child));
    child.kill("SIGKILL");
    const result = await exit;
    expect(result.signal, `round ${round} was to be killed midway: ${result.out}`).toBe("SIGKILL");
    await afterKill(round, target);
  }
}

/** SQLite's own check of a file: every page, index and constraint as it should be. */
function integrityOf(file: string): unknown {
  const db = new Database(file, { fileMustExist: true });
  try {
    return db.pragma("integrity_check", { simple: true });
  } finally {
    db.close();
  }
}

describeCorpus(`an import killed again and again (${testDatabaseDialect})`, () => {
  it("keeps every capture whole after each kill and ends with exactly a clean import's history", async () => {
    const clean = await emptyArchive("clean");
    expect((await exitOf(runImport(clean.location))).code).toBe(0);
    const expected = await history(clean);
    expect(expected.versions.length).toBeGreaterThan(10);

    const crashed = await emptyArchive("crashed");
    await killRounds(crashed, KILL_AFTER_MORE_CAPTURES, async (_round, target) => {
      const partial = await history(crashed);
      // Whatever was recorded is part of the clean history, never a half-written capture.
      for (const line of partial.captures) expect(expected.captures).toContain(line);
      for (const line of partial.versions) expect(expected.versions).toContain(line);
      expect(partial.captures.length).toBeGreaterThanOrEqual(target);
      expect(partial.captures.length).toBeLessThan(expected.captures.length);
    });

    const before = await capturesIn(crashed);
    expect(before).toBeGreaterThanOrEqual(KILL_AFTER_MORE_CAPTURES.reduce((a, b) => a + b, 0));
    const last = await exitOf(runImport(crashed.location));
    expect(last.code, last.out).toBe(0);
    expect(last.out).toContain(`(${before} already recorded)`);
    expect(await history(crashed)).toEqual(expected);
  }, 300_000);

  it.skipIf(testDatabaseDialect !== "sqlite")("leaves a file that passes SQLite's integrity check after each kill and after the finished import (SQLite)", async () => {
    const crashed = await emptyArchive("integrity");
    await killRounds(crashed, [0, 1, 37, 23], async (round) => expect(integrityOf(crashed.location), `after round ${round}`).toBe("ok"));
    const last = await exitOf(runImport(crashed.location));
    expect(last.code, last.out).toBe(0);
    expect(integrityOf(crashed.location)).toBe("ok");
  }, 300_000);
});
