import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { programArgs } from "@/scripts/prebuilt-program";

const ROOT = path.resolve(__dirname, "..", "..");
/** What the bundles are built from and what the CLI reads at run time (db/migrations). */
const PROJECT_FILES = ["db", "lib", "scrapers", "scripts", "server", "package.json", "tsconfig.json"];
const FIXTURE = path.join(ROOT, "tests", "fixtures", "statuspage", "summary-maintenance-offset.json");
const COMMANDS = ["migrate", "import", "import-git", "export", "rederive", "backup", "restore", "vendors", "poll"];
const BUILDING = "redline: building dist/";
const FALLING_BACK = "running the TypeScript through tsx";

const copies: string[] = [];

/** A copy of the project without dist/, so each test builds, edits and breaks its own. */
function copyProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-launch-"));
  copies.push(dir);
  for (const entry of PROJECT_FILES) fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(ROOT, "node_modules")), path.join(dir, "node_modules"));
  return dir;
}

function run(dir: string, args: string[]) {
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: "utf8", env: { ...process.env, REDLINE_DB: path.join(dir, "redline.db") } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function launch(dir: string, args: string[]) {
  return run(dir, [path.join(dir, "scripts", "launch.cjs"), "redline", ...args]);
}

function edit(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, "utf8");
  expect(text).toContain(from);
  fs.writeFileSync(file, text.replace(from, to));
}

afterEach(() => {
  for (const dir of copies.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("the launcher of the prebuilt CLI", () => {
  it("builds the bundles when dist/ is missing, then runs them without building again", () => {
    const dir = copyProject();
    const first = launch(dir, ["--help"]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(BUILDING);
    for (const command of COMMANDS) expect(first.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    for (const program of ["redline", "start", "web-server"]) expect(fs.existsSync(path.join(dir, "dist", `${program}.cjs`))).toBe(true);

    const second = launch(dir, ["--help"]);
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain(BUILDING);
    expect(second.stdout).toBe(first.stdout);
  });

  it("rebuilds when a source the bundle was made of changed, and runs the new code", () => {
    const dir = copyProject();
    expect(launch(dir, ["vendors", "platforms"]).stdout).toContain("Google Cloud Service Health");
    // A module the CLI loads only when the command runs, three imports away from its entry.
    edit(path.join(dir, "scrapers", "live", "core-live.ts"), "Google Cloud Service Health", "Google Cloud, rebuilt");

    const after = launch(dir, ["vendors", "platforms"]);
    expect(after.code).toBe(0);
    expect(after.stderr).toContain(BUILDING);
    expect(after.stdout).toContain("Google Cloud, rebuilt");
    expect(fs.readFileSync(path.join(dir, "dist", "redline.cjs"), "utf8")).toContain("Google Cloud, rebuilt");
    expect(launch(dir, ["vendors", "platforms"]).stderr).not.toContain(BUILDING);
  });

  it("runs the sources through tsx, not the stale bundle, when the bundles cannot be rebuilt", () => {
    const dir = copyProject();
    expect(launch(dir, ["--help"]).code).toBe(0);
    edit(path.join(dir, "scrapers", "cli", "main.ts"), "Redline: an archive", "Redline (edited): an archive");
    // A build starts by removing the manifest: a folder there makes it fail before it writes anything.
    const manifest = path.join(dir, "dist", "build.json");
    fs.rmSync(manifest);
    fs.mkdirSync(manifest);
    fs.writeFileSync(path.join(manifest, "keep"), "");

    const result = launch(dir, ["--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(FALLING_BACK);
    expect(result.stdout).toContain("Redline (edited): an archive");
    expect(fs.readFileSync(path.join(dir, "dist", "redline.cjs"), "utf8")).not.toContain("Redline (edited)");
    expect(launch(dir, ["no-such-command"]).code).toBe(2);
  });

  it("runs the sources through tsx when dist/ cannot even be created", () => {
    const dir = copyProject();
    fs.writeFileSync(path.join(dir, "dist"), "");
    const result = launch(dir, ["--help"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(FALLING_BACK);
    for (const command of COMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${command} `, "m"));
  });
});

describe("the built CLI", () => {
  it("lists every import platform in an import command's help", () => {
    const dir = copyProject();
    expect(run(dir, [path.join(dir, "scripts", "build-cli.cjs")]).code).toBe(0);
    const help = run(dir, [path.join(dir, "dist", "redline.cjs"), "import", "--help"]);
    expect(help.code).toBe(0);
    for (const platform of ["statuspage-summary", "gcp", "slack-history", "rss"]) expect(help.stdout).toContain(platform);
  });

  it("imports and exports exactly as the TypeScript sources do", () => {
    const dir = copyProject();
    expect(run(dir, [path.join(dir, "scripts", "build-cli.cjs")]).code).toBe(0);
    const snapshots = path.join(dir, "snapshots");
    fs.mkdirSync(snapshots);
    const body = fs.readFileSync(FIXTURE, "utf8");
    fs.writeFileSync(path.join(snapshots, "20260301T100000Z__summary.json"), body);
    fs.writeFileSync(path.join(snapshots, "20260301T102000Z__summary.json"), body.replace("Card payouts delayed", "Card payouts delayed in Europe"));

    const exports = [
      { name: "bundle", cli: [path.join(dir, "dist", "redline.cjs")] },
      { name: "source", cli: ["--import", "tsx", path.join(dir, "scrapers", "cli", "main.ts")] },
    ].map(({ name, cli }) => {
      const db = path.join(dir, `${name}.db`);
      const imported = run(dir, [...cli, "import", snapshots, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toMatch(/2 captures \(0 already recorded\), [1-9]\d* new versions/);
      const exported = run(dir, [...cli, "export", "--vendor", "acme", "--format", "json", "--db", db]);
      expect(exported.code, exported.stderr).toBe(0);
      return exported.stdout;
    });
    expect(JSON.parse(exports[0] ?? "")).toEqual(JSON.parse(exports[1] ?? ""));
  });
});

describe("programArgs", () => {
  it("runs the TypeScript through tsx when the caller runs from source, so a stale bundle is never started", () => {
    expect(programArgs("redline", ["poll"])).toEqual(["--import", "tsx", path.join(ROOT, "scrapers", "cli", "main.ts"), "poll"]);
    expect(programArgs("web-server")).toEqual(["--import", "tsx", path.join(ROOT, "server", "web-server.ts")]);
  });
});
