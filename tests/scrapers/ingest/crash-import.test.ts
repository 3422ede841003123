import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";
import { childGone, exitOf, readCount, waitFor } from "@/tests/support/observe";

/**
 * Imports killed with SIGKILL again and again, each time after watching it record a different
 * number of captures, then finished: the database stays intact and its history is exactly a
 * clean import's. Each capture is recorded in one transaction, and a re-run recognises what was
 * recorded before the kill.
 */
const ROOT = path.resolve(__dirname, "..", "..", "..");
const FOLDER = "statuspage-summary-jira";
/**
 * How many captures each round must add before it is killed; 0 kills as soon as the database
 * file exists, in start-up and migrations. They add up to well under the folder's 300 captures,
 * so every kill lands before the import could have finished.
 */
const KILL_AFTER_MORE_CAPTURES = [0, 1, 37, 23, 51, 11, 44];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-crash-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runImport(file: string): ChildProcess {
  return spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "import", corpusPath(FOLDER), "--vendor", "jira", "--platform", "statuspage-summary", "--db", file],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
}

const capturesIn = (file: string) => readCount(file, "SELECT count(*) AS n FROM captures") ?? 0;

/**
 * The whole recorded history, one line a capture and a version, after checking the file's
 * integrity. Opened for writing, as the next import would: a writer killed mid-transaction can
 * leave a WAL whose index must be rebuilt first, which a read-only connection may not do.
 */
function history(file: string): { captures: string[]; versions: string[] } {
  const db = new Database(file, { fileMustExist: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    // A kill during migrations leaves no tables: nothing recorded yet.
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'captures'").get()) return { captures: [], versions: [] };
    const lines = (sql: string) => (db.prepare(sql).all() as { line: string }[]).map((r) => r.line);
    return {
      captures: lines("SELECT source || ' ' || observed_at || ' ' || outcome || ' ' || hash || ' ' || version_count AS line FROM captures ORDER BY line"),
      versions: lines(
        `SELECT i.provider_id || ' #' || v.seq || ' ' || v.observed_at || ' ' || v.hash || ' ' || v.kinds AS line
         FROM incident_versions v JOIN incidents i ON i.id = v.incident_id ORDER BY line`,
      ),
    };
  } finally {
    db.close();
  }
}

describeCorpus("an import killed again and again", () => {
  it("keeps the database intact after each kill and ends with exactly a clean import's history", async () => {
    const clean = path.join(dir, "clean.db");
    expect((await exitOf(runImport(clean))).code).toBe(0);
    const expected = history(clean);
    expect(expected.versions.length).toBeGreaterThan(10);

    const crashed = path.join(dir, "crashed.db");
    for (const [round, more] of KILL_AFTER_MORE_CAPTURES.entries()) {
      const target = capturesIn(crashed) + more;
      const child = runImport(crashed);
      const exit = exitOf(child);
      const reached = more === 0 ? () => fs.existsSync(crashed) : () => capturesIn(crashed) >= target;
      await waitFor(`round ${round}'s import to record ${target} captures`, reached, () => childGone(child));
      child.kill("SIGKILL");
      const result = await exit;
      expect(result.signal, `round ${round} was to be killed midway: ${result.out}`).toBe("SIGKILL");
      const partial = history(crashed);
      // Whatever was recorded is part of the clean history, never a half-written capture.
      for (const line of partial.captures) expect(expected.captures).toContain(line);
      for (const line of partial.versions) expect(expected.versions).toContain(line);
      expect(partial.captures.length).toBeGreaterThanOrEqual(target);
      expect(partial.captures.length).toBeLessThan(expected.captures.length);
    }

    const before = capturesIn(crashed);
    expect(before).toBeGreaterThanOrEqual(KILL_AFTER_MORE_CAPTURES.reduce((a, b) => a + b, 0));
    const last = await exitOf(runImport(crashed));
    expect(last.code, last.out).toBe(0);
    expect(last.out).toContain(`(${before} already recorded)`);
    expect(history(crashed)).toEqual(expected);
  }, 300_000);
});
