import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { CATALOG } from "@/scrapers/catalog/catalog";
import { ARCHIVE_ACCESS, type ArchiveCommand } from "@/scrapers/cli/archive-access";
import { countRows, freshLocation } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-archive-access-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function redline(args: readonly string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDLINE_DATABASE_URL: "", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const snapshots = path.join(dir, "snapshots");
const repo = path.join(dir, "repo");

beforeAll(() => {
  fs.mkdirSync(snapshots);
  fs.copyFileSync(FIXTURE, path.join(snapshots, "20260301T100000Z__summary.json"));
  fs.mkdirSync(repo);
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args]);
  git("init", "-q");
  fs.copyFileSync(FIXTURE, path.join(repo, "summary.json"));
  git("add", "summary.json");
  git("commit", "-q", "-m", "snapshot");
});

/** A run of each command that reads or changes an archive, with flags it accepts, so only the archive's absence can stop it. */
const REFUSING_RUNS: Record<string, readonly string[]> = {
  "import --add-source": ["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--add-source"],
  "import-git --add-source": ["import-git", repo, "summary.json", "--vendor", "acme", "--platform", "statuspage-summary", "--add-source"],
  "vendors add --add-source": ["vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", "https://status.acme.example", "--add-source"],
  "vendors list": ["vendors", "list"],
  "vendors remove": ["vendors", "remove", "acme"],
  "vendors hook-secret": ["vendors", "hook-secret", "acme"],
  export: ["export", "--vendor", "sim-0001", "--format", "json"],
  status: ["status", "--vendor", "acme"],
  stats: ["stats"],
  rederive: ["rederive", "--status"],
  "prune-raw": ["prune-raw", "--keep-raw-days", "30"],
  poll: ["poll", "--once"],
  notify: ["notify", "--once"],
  "watchlists add": ["watchlists", "add", "team", "--vendor", "sim-0001"],
  "watchlists list": ["watchlists", "list"],
  "watchlists remove": ["watchlists", "remove", "team"],
  "subscriptions add": ["subscriptions", "add", "--target", "https://hooks.example.com/redline"],
  "subscriptions list": ["subscriptions", "list"],
  "subscriptions remove": ["subscriptions", "remove", "sub_x"],
  "subscriptions test": ["subscriptions", "test", "sub_x"],
  "subscriptions deliveries": ["subscriptions", "deliveries", "sub_x"],
};

/** The same for each command that may start an archive where there is none, with the vendors it then holds. */
const STARTING_RUNS: Record<string, { args: readonly string[]; vendors: number }> = {
  migrate: { args: ["migrate"], vendors: 0 },
  import: { args: ["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary"], vendors: 1 },
  "import-git": { args: ["import-git", repo, "summary.json", "--vendor", "acme", "--platform", "statuspage-summary"], vendors: 1 },
  "vendors add": { args: ["vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", "https://status.acme.example"], vendors: 1 },
  "vendors sync-catalog": { args: ["vendors", "sync-catalog"], vendors: CATALOG.length },
};

/** Every file SQLite would leave for `file`, and its folder, which opening makes too. */
function leftBehind(file: string): string[] {
  return [path.dirname(file), file, `${file}-wal`, `${file}-shm`].filter((f) => fs.existsSync(f));
}

describe("which commands start an archive and which refuse a missing one", () => {
  it("runs every command of the decision here, as refusing or starting", () => {
    const commands = Object.keys(ARCHIVE_ACCESS) as ArchiveCommand[];
    expect(Object.keys(REFUSING_RUNS).sort()).toEqual(commands.filter((c) => ARCHIVE_ACCESS[c] === "refuse").sort());
    expect(Object.keys(STARTING_RUNS).sort()).toEqual(commands.filter((c) => ARCHIVE_ACCESS[c] === "start").sort());
  });
});

describe.skipIf(testDatabaseDialect !== "sqlite")("a command that reads or changes an archive, where there is none (SQLite)", () => {
  it.each(Object.entries(REFUSING_RUNS))("%s refuses with where it looked and what to do, exit 1, and creates nothing", (_command, args) => {
    const file = path.join(dir, "absent", "redline.db");
    const result = redline([...args, "--db", file]);
    expect(result.stderr).toBe(`redline: no archive at ${file}: give --db <file or url> (or set REDLINE_DB) to name yours, or start one here with \`redline migrate\`\n`);
    expect(result.code).toBe(1);
    expect(leftBehind(file)).toEqual([]);
  });

  it("watchlists add, as the /watch page suggests, refuses the archive REDLINE_DB names when it is missing, rather than answer 'no vendor'", () => {
    const file = path.join(dir, "data", "redline.db");
    const result = redline(["watchlists", "add", "team", "--vendor", "sim-0001"], { REDLINE_DB: file });
    expect(result.stderr).toContain(`redline: no archive at ${file}: `);
    expect(result.stderr).not.toContain("no vendor");
    expect(result.code).toBe(1);
    expect(leftBehind(file)).toEqual([]);
  });

  it.each(Object.entries(STARTING_RUNS))("%s starts an archive where there is none", async (command, { args, vendors }) => {
    const file = path.join(dir, "new", `${command.replace(/ /g, "-")}.db`);
    const result = redline([...args, "--db", file]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const db = await openStore(file, { migrate: false });
    try {
      expect(await countRows(db, "vendors")).toBe(vendors);
    } finally {
      await closeStore(db);
    }
  });
});

describe.skipIf(testDatabaseDialect !== "postgres")("a command that reads an archive, on PostgreSQL", () => {
  it("opens a database the URL names that holds no archive yet, as before: a URL is not a file to look for", async () => {
    const url = await freshLocation(dir, { name: "empty", migrated: false });
    const result = redline(["watchlists", "list", "--db", url]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("no watchlists");
    expect(result.code).toBe(0);
  });
});
