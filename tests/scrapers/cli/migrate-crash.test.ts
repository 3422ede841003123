import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { countLegacyBodies } from "@/db/history/body-conversion";
import { closeDatabase, openDatabase } from "@/db/client";
import { describeCorpus } from "@/tests/support/corpus";
import { importCorpusFolder, restoredHashes, toLegacyLayout, vendorExportJson } from "@/tests/support/body-store";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-migrate-crash-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function migrate(file: string) {
  const child = spawn(process.execPath, [REDLINE_BUNDLE, "migrate", "--body-batch", "1", "--db", file], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { child, watched: watchProcess(child) };
}

/** Opened for writing, as the next command would: a SIGKILL can leave a WAL index to rebuild. */
async function inspect<T>(file: string, look: (db: ReturnType<typeof openDatabase>) => T | Promise<T>): Promise<T> {
  const db = openDatabase(file, { migrate: false });
  try {
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
    return await look(db);
  } finally {
    closeDatabase(db);
  }
}

// Only SQLite files of earlier Redlines have the previous layouts: PostgreSQL support began after them.
describeCorpus("migrate killed while converting raw bodies (SQLite)", () => {
  it("leaves a database whose every capture restores, and the next migrate finishes the conversion", async () => {
    const file = path.join(dir, "redline.db");
    const db = openDatabase(file);
    await importCorpusFolder(db, "statuspage-summary-jira");
    const total = await toLegacyLayout(db);
    const expected = await vendorExportJson(db, "jira");
    closeDatabase(db);

    const first = migrate(file);
    await first.watched.until("a first batch converted", () => first.watched.stdout.some((l) => /^converted \d+ raw bodies to deltas/.test(l)));
    first.child.kill("SIGKILL");
    expect((await first.watched.exited).signal).toBe("SIGKILL");
    const backedUp = first.watched.stdout.map((l) => /^backed up .* to (\S+) \(.*\) before converting it/.exec(l)).find((m) => m !== null);
    const backup = backedUp?.[1] ?? "";
    expect(await inspect(backup, (b) => countLegacyBodies(b.$client))).toBe(total);

    const left = await inspect(file, async (crashed) => {
      for (const r of await restoredHashes(crashed)) expect(r.restored, `capture ${r.id} after the kill`).toBe(r.recorded);
      return countLegacyBodies(crashed.$client);
    });
    // Killed midway: some bodies converted, some still gzip.
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(total);

    const second = migrate(file);
    const exit = await second.watched.exited;
    expect(exit.code, second.watched.stderr.join("\n")).toBe(0);
    expect(second.watched.stdout).toContainEqual(expect.stringMatching(/^backed up .* before converting it/));
    const firstBatch = second.watched.stdout.map((l) => /^converted (\d+) raw bodies to deltas, (\d+) to go/.exec(l)).find((m) => m !== null);
    expect(Number(firstBatch?.[1]) + Number(firstBatch?.[2])).toBe(left);
    await inspect(file, async (done) => {
      expect(countLegacyBodies(done.$client)).toBe(0);
      for (const r of await restoredHashes(done)) expect(r.restored, `capture ${r.id} after the second migrate`).toBe(r.recorded);
      expect(await vendorExportJson(done, "jira")).toBe(expected);
    });
  });
});
