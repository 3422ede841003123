import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { countRows, freshLocation } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-vendors-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function redline(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "0", ...env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** An archive that exists, migrated and empty, on the suite's database. */
async function emptyArchive(): Promise<string> {
  const location = await freshLocation(dir);
  await closeStore(await openStore(location));
  return location;
}

async function vendorRows(location: string): Promise<number> {
  const db = await openStore(location, { migrate: false });
  try {
    return await countRows(db, "vendors");
  } finally {
    await closeStore(db);
  }
}

const refusals = [
  ["a loopback URL", ["--platform", "statuspage", "--url", "http://127.0.0.1:8080"], /private, loopback or link-local/],
  ["a link-local URL", ["--platform", "statuspage", "--url", "http://169.254.169.254/latest"], /private, loopback or link-local/],
  ["a local host name", ["--platform", "statuspage", "--url", "http://localhost:3000"], /local host name/],
  ["an unknown platform", ["--platform", "statuspages", "--url", "https://www.githubstatus.com"], /unknown platform "statuspages"/],
  ["something that is not a URL", ["--platform", "statuspage", "--url", "githubstatus"], /not a URL/],
  ["a non-HTTP URL", ["--platform", "statuspage", "--url", "ftp://example.com/x"], /only http and https/],
  ["a silly interval", ["--platform", "statuspage", "--url", "https://www.githubstatus.com", "--interval", "1"], /--interval must be/],
] as const;

function addRefused(db: string, extra: readonly string[], message: RegExp): void {
  const result = redline(["vendors", "add", "--slug", "acme", "--name", "Acme", ...extra, "--db", db]);
  expect(result.code).not.toBe(0);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

describe(`redline vendors (${testDatabaseDialect})`, () => {
  it.each(refusals)("refuses %s with a clear message, writing nothing", async (_what, extra, message) => {
    const db = await emptyArchive();
    addRefused(db, extra, message);
    expect(await vendorRows(db)).toBe(0);
  });

  it.skipIf(testDatabaseDialect !== "sqlite").each(refusals)("refuses %s without creating the database file (SQLite)", async (_what, extra, message) => {
    const db = await freshLocation(dir, { name: "refused" });
    addRefused(db, extra, message);
    expect(fs.existsSync(db)).toBe(false);
  });

  it("refuses a vendor slug over 64 characters, naming the limit without echoing the slug, and takes one of 64", async () => {
    const db = await emptyArchive();
    const refused = redline(["vendors", "add", "--slug", "a".repeat(5_000), "--name", "Acme", "--platform", "statuspage", "--url", "https://acme.example.com", "--db", db]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim()).toMatch(/^[^\n]*at most 64$/);
    expect(refused.stderr.length).toBeLessThan(200);
    expect(await vendorRows(db)).toBe(0);
    const added = redline(["vendors", "add", "--slug", "a".repeat(64), "--name", "Acme", "--platform", "statuspage", "--url", "https://acme.example.com", "--db", db]);
    expect(added.code).toBe(0);
    expect(await vendorRows(db)).toBe(1);
  });

  it("adds loopback vendors when the operator allows private URLs, lists and removes them, keeping history unless purged", async () => {
    const db = await freshLocation(dir);
    const added = redline(["vendors", "add", "--slug", "sim", "--name", "Simulated", "--platform", "statuspage", "--url", "http://127.0.0.1:9/", "--interval", "30", "--db", db], { REDLINE_ALLOW_PRIVATE_URLS: "1" });
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("added sim (statuspage)");
    expect(redline(["vendors", "add", "--slug", "sim", "--name", "Again", "--platform", "statuspage", "--url", "https://example.com", "--db", db]).stderr).toMatch(/already exists/);
    const list = redline(["vendors", "list", "--db", db]);
    expect(list.stdout).toMatch(/sim\s+statuspage\s+yes\s+never\s+0\s+http:\/\/127\.0\.0\.1:9\//);
    const removed = redline(["vendors", "remove", "sim", "--db", db]);
    expect(removed.stdout).toContain("will no longer be polled");
    expect(redline(["vendors", "list", "--db", db]).stdout).toMatch(/sim\s+statuspage\s+no/);
    expect(redline(["vendors", "remove", "sim", "--purge", "--db", db]).stdout).toContain("deleted sim");
    expect(redline(["vendors", "list", "--db", db]).stdout).toContain("no vendors yet");
  });

  it("lists vendors by name ignoring case", async () => {
    const db = await freshLocation(dir);
    for (const [slug, name] of [["zulu", "Zulu"], ["acme", "acme"], ["mid", "Mid"]] as const) {
      expect(redline(["vendors", "add", "--slug", slug, "--name", name, "--platform", "statuspage", "--url", `https://${slug}.example.com`, "--db", db]).code).toBe(0);
    }
    const slugs = redline(["vendors", "list", "--db", db]).stdout.trim().split("\n").slice(1).map((line) => line.split(/\s+/)[0]);
    expect(slugs).toEqual(["acme", "mid", "zulu"]);
  });

  it("adds the built-in catalog once, and a catalog vendor the operator removed stays removed", async () => {
    const db = await freshLocation(dir);
    const first = redline(["vendors", "sync-catalog", "--db", db]);
    expect(first.stdout).toMatch(/catalog: (\d+) vendors, \1 added/);
    redline(["vendors", "remove", "github", "--db", db]);
    expect(redline(["vendors", "sync-catalog", "--db", db]).stdout).toMatch(/0 added, 0 updated/);
    expect(redline(["vendors", "list", "--db", db]).stdout).toMatch(/github\s+statuspage\s+no/);
  });
});
