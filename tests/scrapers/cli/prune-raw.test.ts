import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StorageStats } from "@/db/queries/storage-stats";
import { freshLocation } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = fs.readFileSync(path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json"), "utf8");

function redline(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDLINE_KEEP_RAW_DAYS: "", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}Z$/, "Z");
}

/** Four snapshots, each renaming the incident: three a year ago, one an hour ago. */
function writeFolder(dir: string): string {
  const folder = path.join(dir, "snapshots");
  fs.mkdirSync(folder);
  const now = Date.now();
  const times = [400, 399, 398].map((days) => new Date(now - days * 86_400_000)).concat([new Date(now - 3_600_000)]);
  times.forEach((time, i) => {
    fs.writeFileSync(path.join(folder, `${stamp(time)}__summary.json`), FIXTURE.replace("Card payouts delayed", `Card payouts delayed (${i})`));
  });
  return folder;
}

describe(`redline prune-raw (${testDatabaseDialect})`, () => {
  let dir: string;
  let folder: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-prune-"));
    folder = writeFolder(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function imported(name: string): Promise<string> {
    const db = await freshLocation(dir, { name });
    const result = redline(["import", folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    return db;
  }

  it("deletes the expired raw bodies, leaves the export as it was, also after a rederive of what is kept", async () => {
    const db = await imported("flag");
    const exported = redline(["export", "--vendor", "acme", "--format", "json", "--db", db]);
    expect(exported.code).toBe(0);

    const pruned = redline(["prune-raw", "--keep-raw-days", "30", "--db", db]);
    expect(pruned.stderr).toBe("");
    expect(pruned.code).toBe(0);
    // The three captures of a year ago lose their body; the one of an hour ago keeps it.
    expect(pruned.stdout).toMatch(/: 3 captures lost their body, 3 bodies deleted/);

    expect(redline(["export", "--vendor", "acme", "--format", "json", "--db", db]).stdout).toBe(exported.stdout);
    const stats = JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StorageStats;
    expect(stats.prunedRaw.captures).toBe(3);
    expect(stats.vendors[0]?.parts.rawBodies.rows).toBe(1);

    const rederive = redline(["rederive", "--vendor", "acme", "--db", db]);
    expect(rederive.code).toBe(0);
    expect(rederive.stdout).toMatch(/^rederived acme: /);
    expect(redline(["export", "--vendor", "acme", "--format", "json", "--db", db]).stdout).toBe(exported.stdout);
  });

  it("takes the period from REDLINE_KEEP_RAW_DAYS when no flag is given, and one vendor with --vendor", async () => {
    const db = await imported("env");
    const other = redline(["prune-raw", "--vendor", "nobody", "--db", db], { REDLINE_KEEP_RAW_DAYS: "30" });
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/unknown vendor "nobody"/);
    const pruned = redline(["prune-raw", "--vendor", "acme", "--db", db], { REDLINE_KEEP_RAW_DAYS: "30" });
    expect(pruned.code).toBe(0);
    expect(pruned.stdout).toMatch(/: 3 captures lost their body/);
    // A longer period than the history keeps everything.
    const db2 = await imported("long");
    expect(redline(["prune-raw", "--db", db2], { REDLINE_KEEP_RAW_DAYS: "1000" }).stdout).toMatch(/: 0 captures lost their body, 0 bodies deleted/);
  });

  it("refuses bad periods with a clear message, and does nothing without one", async () => {
    const db = await imported("bad");
    for (const [value, message] of [
      ["0", /--keep-raw-days "0": must be at least 1 day/],
      ["abc", /--keep-raw-days "abc": must be a whole number of days/],
      ["2.5", /--keep-raw-days "2.5": must be a whole number of days/],
    ] as const) {
      const result = redline(["prune-raw", "--keep-raw-days", value, "--db", db]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    const env = redline(["prune-raw", "--db", db], { REDLINE_KEEP_RAW_DAYS: "-1" });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/invalid environment: REDLINE_KEEP_RAW_DAYS: must be at least 1 day/);
    const none = redline(["prune-raw", "--db", db]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/raw bodies are kept forever: pass --keep-raw-days N or set REDLINE_KEEP_RAW_DAYS/);
    const stats = JSON.parse(redline(["stats", "--json", "--db", db]).stdout) as StorageStats;
    expect(stats.prunedRaw.captures).toBe(0);
  });
});
