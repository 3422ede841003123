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
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-url-guard-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function redline(args: string[]) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "0" } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function rows(location: string, table: string): Promise<number> {
  const db = await openStore(location, { migrate: false });
  try {
    return await countRows(db, table);
  } finally {
    await closeStore(db);
  }
}

let archive: string | undefined;
/** One archive, migrated, holding the vendor acme, for every test: the refusals write nothing to it. */
async function acmeArchive(): Promise<string> {
  if (archive) return archive;
  const location = await freshLocation(dir);
  expect(redline(["vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", "https://status.acme.example./", "--db", location]).code).toBe(0);
  return (archive = location);
}

const PRIVATE_IN_DISGUISE = ["http://localhost.:3999/", "http://foo.localhost./", "http://metadata.google.internal./", "http://[::127.0.0.1]:3999/", "http://[2002:7f00:1::]/"];

describe(`the CLI's URL guard (${testDatabaseDialect})`, () => {
  it.each(PRIVATE_IN_DISGUISE)("refuses %s as a vendor URL and as a subscription target, writing nothing", async (url) => {
    const db = await acmeArchive();
    const vendor = redline(["vendors", "add", "--slug", "sneaky", "--name", "Sneaky", "--platform", "statuspage", "--url", url, "--db", db]);
    expect(vendor.code).not.toBe(0);
    expect(vendor.stderr).toMatch(/local host name|private, loopback or link-local/);
    const subscription = redline(["subscriptions", "add", "--target", url, "--vendor", "acme", "--db", db]);
    expect(subscription.code).not.toBe(0);
    expect(subscription.stderr).toMatch(/local host name|private, loopback or link-local/);
    expect(await rows(db, "vendors")).toBe(1);
    expect(await rows(db, "subscriptions")).toBe(0);
  });

  it("refuses a vendor URL with a user name and password, saying why without repeating the password", async () => {
    const db = await acmeArchive();
    const result = redline(["vendors", "add", "--slug", "newco", "--name", "NewCo", "--platform", "statuspage", "--url", "https://ops:pw-secret@status.newco.example/", "--db", db]);
    expect(result.code).not.toBe(0);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/no user name or password in the vendor URL/);
    expect(result.stderr).not.toContain("pw-secret");
    expect(await rows(db, "vendors")).toBe(1);
  });
});
