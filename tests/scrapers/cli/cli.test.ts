import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURE = path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json");

function redline(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the redline command", () => {
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

  it("imports a folder, reports captures, versions and failures, then adds nothing on a second run", () => {
    const db = path.join(dir, "import.db");
    const first = redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/3 captures \(0 already recorded\), \d+ new versions, 1 failed, 0 invalid captures in [\d.]+ s/);
    expect(first.stdout).toContain("skipped 1 files");
    const second = redline(["import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(second.stdout).toMatch(/0 captures \(3 already recorded\), 0 new versions/);
  });

  it("exports JSON and Markdown of what it imported", () => {
    const db = path.join(dir, "export.db");
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

  it.each([
    ["an unknown platform", ["import", "SNAPSHOTS", "--vendor", "acme", "--platform", "nope"], /unknown platform "nope"/],
    ["a missing folder", ["import", "/nonexistent/redline", "--vendor", "acme", "--platform", "statuspage-summary"], /no such folder/],
    ["a bad vendor slug", ["import", "SNAPSHOTS", "--vendor", "Not A Slug", "--platform", "statuspage-summary"], /invalid vendor slug/],
    ["an unknown flag", ["import", "SNAPSHOTS", "--vendor", "acme", "--platform", "statuspage-summary", "--frobnicate"], /unknown option/],
    ["an unknown export format", ["export", "--vendor", "acme", "--format", "xml"], /unknown format "xml"/],
  ])("refuses %s with a one-line error, a non-zero exit and nothing written", (_what, args, message) => {
    const db = path.join(dir, `refused-${Math.random().toString(36).slice(2)}.db`);
    const result = redline([...args.map((a) => (a === "SNAPSHOTS" ? snapshots : a)), "--db", db]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")[0]).toMatch(message);
    expect(fs.existsSync(db)).toBe(false);
  });

  it("refuses a folder with an unreadable snapshot before writing anything", () => {
    const broken = path.join(dir, "broken");
    fs.mkdirSync(broken);
    fs.copyFileSync(FIXTURE, path.join(broken, "20260301T100000Z__summary.json"));
    fs.symlinkSync(path.join(broken, "gone.json"), path.join(broken, "20260301T101000Z__summary.json"));
    const db = path.join(dir, "broken.db");
    const result = redline(["import", broken, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/cannot read .*20260301T101000Z__summary\.json/);
    expect(fs.existsSync(db)).toBe(false);
  });

  it("imports every committed version of a file from a git-scraping repository, once", () => {
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
    const db = path.join(dir, "git.db");
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

  it("refuses a path no commit touches", () => {
    const repo = path.join(dir, "empty-repo");
    fs.mkdirSync(repo);
    execFileSync("git", ["-C", repo, "init", "-q"]);
    const db = path.join(dir, "nogit.db");
    const result = redline(["import-git", repo, "summary.json", "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(fs.existsSync(db)).toBe(false);
  });

  it("backs the database up to a new file and restores it, keeping what it replaced", () => {
    const db = path.join(dir, "backup-source.db");
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

  it("ends quietly with its own exit code when the reader of its output goes away", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "vendors", "platforms"], {
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
