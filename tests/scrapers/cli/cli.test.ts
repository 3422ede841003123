import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore, redact } from "@/db/client";
import { countRows, freshLocation } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json");

function redline(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An archive that exists, migrated and empty, on the suite's database. */
async function emptyArchive(dir: string): Promise<string> {
  const location = await freshLocation(dir);
  await closeStore(await openStore(location));
  return location;
}

/** What a refused command must not have written: a vendor or a capture. */
async function archivedRows(location: string): Promise<{ vendors: number; captures: number }> {
  const db = await openStore(location, { migrate: false });
  try {
    return { vendors: await countRows(db, "vendors"), captures: await countRows(db, "captures") };
  } finally {
    await closeStore(db);
  }
}

const refusals = [
  ["an unknown platform", ["import", "SNAPSHOTS", "--vendor", "acme", "--platform", "nope"], /unknown platform "nope"/],
  ["a missing folder", ["import", "/nonexistent/redline", "--vendor", "acme", "--platform", "statuspage-summary"], /no such folder/],
  ["a bad vendor slug", ["import", "SNAPSHOTS", "--vendor", "Not A Slug", "--platform", "statuspage-summary"], /invalid vendor slug/],
  ["a vendor slug over 64 characters", ["import", "SNAPSHOTS", "--vendor", "a".repeat(65), "--platform", "statuspage-summary"], /vendor slug is 65 characters long: at most 64/],
  ["an unknown flag", ["import", "SNAPSHOTS", "--vendor", "acme", "--platform", "statuspage-summary", "--frobnicate"], /unknown option/],
  ["an unknown export format", ["export", "--vendor", "acme", "--format", "xml"], /unknown format "xml"/],
] as const;

describe(`the redline command (${testDatabaseDialect})`, () => {
  let dir: string;
  let snapshots: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-cli-"));
    snapshots = path.join(dir, "snapshots");
    fs.mkdirSync(snapshots);
    const body = fs.readFileSync(FIXTURE, "utf8");
    fs.writeFileSync(path.join(snapshots, "20260301T100000Z__summary.json"), body);
    fs.writeFileSync(path.join(snapshots, "20260301T101000Z__summary.json"), "");
    fs.writeFileSync(path.join(snapshots, "20260301T102000Z__summary.json"), body.replace("Card payouts delayed", "Card payouts delayed in Europe"));
    fs.writeFileSync(path.join(snapshots, "MANIFEST.tsv"), "not a snapshot\n");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("imports a folder, reports captures, versions and failures, then adds nothing on a second run", async () => {
    const db = await freshLocation(dir);
    const first = redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/3 captures \(0 already recorded\), \d+ new versions, 1 failed, 0 invalid captures in [\d.]+ s/);
    expect(first.stdout).toContain("skipped 1 files");
    const second = redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(second.stdout).toMatch(/0 captures \(3 already recorded\), 0 new versions/);
  });

  it("exports JSON and Markdown of what it imported", async () => {
    const db = await freshLocation(dir);
    redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    const json = redline(["export", "--vendor", "acme", "--format", "json", "--db", db]);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { vendor: { slug: string }; incidents: Array<{ id: string; versions: Array<{ kinds: string[] }> }> };
    expect(doc.vendor.slug).toBe("acme");
    expect(doc.incidents.length).toBeGreaterThan(0);
    const one = doc.incidents[0];
    const md = redline(["export", "--vendor", "acme", "--incident", one?.id ?? "", "--format", "md", "--db", db]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("#### What changed");
    expect(md.stdout).toContain("Machine-written from the diff below");
  });

  function refused(db: string, args: readonly string[], message: RegExp): void {
    const result = redline([...args.map((a) => (a === "SNAPSHOTS" ? snapshots : a)), "--db", db]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")[0]).toMatch(message);
  }

  it.each(refusals)("refuses %s with a one-line error, a non-zero exit and nothing written", async (_what, args, message) => {
    const db = await emptyArchive(dir);
    refused(db, args, message);
    expect(await archivedRows(db)).toEqual({ vendors: 0, captures: 0 });
  });

  it.skipIf(testDatabaseDialect !== "sqlite").each(refusals)("refuses %s without creating the database file (SQLite)", async (_what, args, message) => {
    const db = await freshLocation(dir, { name: "refused" });
    refused(db, args, message);
    expect(fs.existsSync(db)).toBe(false);
  });

  /** A folder whose second snapshot is a link to nothing. */
  function brokenFolder(name: string): string {
    const broken = path.join(dir, name);
    fs.mkdirSync(broken);
    fs.copyFileSync(FIXTURE, path.join(broken, "20260301T100000Z__summary.json"));
    fs.symlinkSync(path.join(broken, "gone.json"), path.join(broken, "20260301T101000Z__summary.json"));
    return broken;
  }

  function importRefused(db: string, folder: string): void {
    const result = redline(["import", folder, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot read .*20260301T101000Z__summary\.json/);
  }

  it("refuses a folder with an unreadable snapshot before writing anything", async () => {
    const db = await emptyArchive(dir);
    importRefused(db, brokenFolder("broken"));
    expect(await archivedRows(db)).toEqual({ vendors: 0, captures: 0 });
  });

  it.skipIf(testDatabaseDialect !== "sqlite")("refuses a folder with an unreadable snapshot without creating the database file (SQLite)", async () => {
    const db = await freshLocation(dir, { name: "broken" });
    importRefused(db, brokenFolder("broken-new"));
    expect(fs.existsSync(db)).toBe(false);
  });

  it("imports every committed version of a file from a git-scraping repository, once", async () => {
    const repo = path.join(dir, "repo");
    fs.mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { stdio: "pipe" });
    git("init", "-q");
    const body = fs.readFileSync(FIXTURE, "utf8");
    const commit = (content: string, when: string) => {
      fs.writeFileSync(path.join(repo, "summary.json"), content);
      git("add", "summary.json");
      execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "snapshot"], {
        env: { ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when },
      });
    };
    commit(body, "2026-03-01T10:00:00Z");
    commit(body.replace("Card payouts delayed", "Card payouts delayed in Europe"), "2026-03-01T10:15:00Z");
    fs.writeFileSync(path.join(repo, "other.txt"), "unrelated");
    git("add", "other.txt");
    git("commit", "-q", "-m", "other");
    const db = await freshLocation(dir);
    const first = redline(["import-git", repo, "summary.json", "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/2 captures \(0 already recorded\)/);
    const again = redline(["import-git", repo, "summary.json", "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(again.stdout).toMatch(/0 captures \(2 already recorded\), 0 new versions/);
    const json = JSON.parse(redline(["export", "--vendor", "acme", "--format", "json", "--db", db]).stdout) as { incidents: Array<{ versions: Array<{ observedAt: string; kinds: string[] }> }> };
    const observed = json.incidents.flatMap((i) => i.versions.map((v) => v.observedAt));
    expect(observed).toContain("2026-03-01T10:00:00.000Z");
    expect(json.incidents.some((i) => i.versions.some((v) => v.observedAt === "2026-03-01T10:15:00.000Z" && v.kinds.includes("title-changed")))).toBe(true);
  });

  /** A repository with no commit. */
  function emptyRepo(name: string): string {
    const repo = path.join(dir, name);
    fs.mkdirSync(repo);
    execFileSync("git", ["-C", repo, "init", "-q"]);
    return repo;
  }

  function importGitRefused(db: string, repo: string): void {
    const result = redline(["import-git", repo, "summary.json", "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  }

  it("refuses a path no commit touches", async () => {
    const db = await emptyArchive(dir);
    importGitRefused(db, emptyRepo("empty-repo"));
    expect(await archivedRows(db)).toEqual({ vendors: 0, captures: 0 });
  });

  it.skipIf(testDatabaseDialect !== "sqlite")("refuses a path no commit touches without creating the database file (SQLite)", async () => {
    const db = await freshLocation(dir, { name: "nogit" });
    importGitRefused(db, emptyRepo("empty-repo-new"));
    expect(fs.existsSync(db)).toBe(false);
  });

  it.skipIf(testDatabaseDialect !== "sqlite")("backs the database up to a new file and restores it, keeping what it replaced (SQLite)", async () => {
    const db = await freshLocation(dir, { name: "backup-source" });
    expect(redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const copy = path.join(dir, "nightly.db");
    const backup = redline(["backup", copy, "--db", db]);
    expect(backup.stdout).toMatch(/^backed up .+ to .+nightly\.db: [\d.]+ MB, \d+ versions, in [\d.]+ s$/m);
    expect(redline(["backup", copy, "--db", db])).toMatchObject({ code: 1, stderr: expect.stringContaining("exists") });
    const restore = redline(["restore", copy, "--db", db]);
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/the database it replaced is kept as .+before-restore-/);
    const bad = redline(["restore", path.join(snapshots, "MANIFEST.tsv"), "--db", db]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/restore: /);
  });

  it.skipIf(testDatabaseDialect !== "postgres")("refuses to back up or restore over a PostgreSQL database, naming its own tools (PostgreSQL)", async () => {
    const db = await freshLocation(dir);
    expect(redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const before = await archivedRows(db);
    const copy = path.join(dir, "pg-nightly.db");
    expect(redline(["backup", copy, "--db", db])).toMatchObject({ code: 1, stderr: `redline: backup: ${redact(db)} is a PostgreSQL database: back it up with pg_dump and restore it with pg_restore\n` });
    expect(fs.existsSync(copy)).toBe(false);
    // Refused before the backup is even looked at: a file of a SQLite archive never lands in PostgreSQL.
    expect(redline(["restore", copy, "--db", db])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^redline: restore: .* is a PostgreSQL database: .*pg_restore/) });
    expect(await archivedRows(db)).toEqual(before);
  });

  it("ends quietly with its own exit code when the reader of its output goes away", async () => {
    const child = spawn(process.execPath, [REDLINE_BUNDLE, "vendors", "platforms"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    // Closed before the command can have written a byte: its first write meets a closed pipe, as under `| head`.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, "close")) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });
});
