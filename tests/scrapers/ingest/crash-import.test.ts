import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { corpusPath, describeCorpus } from "@/tests/support/corpus";

/**
 * Imports killed with SIGKILL at random moments, again and again, then finished: the database
 * stays intact and its history is exactly a clean import's. Each capture is recorded in one
 * transaction, and a re-run recognises what was recorded before the kill.
 */
const ROOT = path.resolve(__dirname, "..", "..", "..");
const FOLDER = "statuspage-summary-jira";
const KILLS = 6;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-crash-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function runImport(file: string): ChildProcess {
  return spawn(
    process.execPath,
    ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "import", corpusPath(FOLDER), "--vendor", "jira", "--platform", "statuspage-summary", "--db", file],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }> {
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, out })));
}

/** The whole recorded history, one line a capture and a version, after checking the file's integrity. */
function history(file: string): { captures: string[]; versions: string[] } {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
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
  it("keeps the database intact and ends with exactly a clean import's history", async () => {
    const clean = path.join(dir, "clean.db");
    const started = performance.now();
    expect((await exited(runImport(clean))).code).toBe(0);
    const cleanMs = performance.now() - started;
    const expected = history(clean);
    expect(expected.versions.length).toBeGreaterThan(10);

    const crashed = path.join(dir, "crashed.db");
    let killedMidway = 0;
    let interruptedWithProgress = 0;
    for (let round = 0; round < KILLS; round += 1) {
      const child = runImport(crashed);
      const done = exited(child);
      // Somewhere between start-up and the end of a clean run.
      const delay = 600 + ((round * 0.37) % 1) * Math.max(500, cleanMs - 600);
      const timer = setTimeout(() => child.kill("SIGKILL"), delay);
      const result = await done;
      clearTimeout(timer);
      if (result.signal === "SIGKILL") killedMidway += 1;
      if (fs.existsSync(crashed)) {
        const partial = history(crashed);
        // Whatever was recorded is part of the clean history, never a half-written capture.
        for (const line of partial.captures) expect(expected.captures).toContain(line);
        if (result.signal === "SIGKILL" && partial.captures.length > 0 && partial.captures.length < expected.captures.length) interruptedWithProgress += 1;
      }
    }
    expect(killedMidway).toBeGreaterThanOrEqual(KILLS / 2);
    // At least one kill landed in the middle of recording, not before or after it.
    expect(interruptedWithProgress).toBeGreaterThan(0);
    const last = await exited(runImport(crashed));
    expect(last.code, last.out).toBe(0);
    expect(history(crashed)).toEqual(expected);
  }, 180_000);
});
