import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { countRows, freshLocation, queryRow, queryRows } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const FIXTURES = path.join(ROOT, "tests", "fixtures");
let dir: string;
let summaries: string;
let gcpSnapshots: string;
let atomSnapshots: string;
let maintenances: string;

function redline(args: string[]) {
  const result = spawnSync(process.execPath, [REDLINE_BUNDLE, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "0" },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A folder holding one fixture as a snapshot named for the import command. */
function snapshotFolder(name: string, fixture: string): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  fs.copyFileSync(path.join(FIXTURES, fixture), path.join(folder, `20260301T100000Z__${path.basename(fixture)}`));
  return folder;
}

interface VendorSnapshot {
  vendors: number;
  captures: number;
  incidents: number;
  vendor: { platform: string; url: string | null; enabled: number; origin: string } | undefined;
  platforms: string[];
}

async function inspect(location: string, slug: string): Promise<VendorSnapshot> {
  const db = await openStore(location, { migrate: false });
  try {
    const vendor = await queryRow<NonNullable<VendorSnapshot["vendor"]>>(db, "SELECT platform, url, enabled, origin FROM vendors WHERE slug = ?", slug);
    const platforms = await queryRows<{ p: string }>(db, "SELECT DISTINCT c.platform AS p FROM captures c JOIN vendors v ON v.id = c.vendor_id WHERE v.slug = ? ORDER BY 1", slug);
    return {
      vendors: await countRows(db, "vendors"),
      captures: await countRows(db, "captures"),
      incidents: await countRows(db, "incidents"),
      vendor,
      platforms: platforms.map((r) => r.p),
    };
  } finally {
    await closeStore(db);
  }
}

function expectOneLineRefusal(result: { code: number | null; stderr: string }, message: RegExp): void {
  expect(result.code).not.toBe(0);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.stderr).toMatch(message);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-sources-"));
  summaries = snapshotFolder("summaries", "statuspage/summary-maintenance-offset.json");
  gcpSnapshots = snapshotFolder("gcp", "gcp/current-schema-handwritten.json");
  atomSnapshots = snapshotFolder("atom", "statuspage/history-postmortem-maintenance.atom");
  maintenances = snapshotFolder("maintenances", "statuspage/scheduled-maintenances-no-page-url.json");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe(`importing into an existing vendor (${testDatabaseDialect})`, () => {
  it("refuses Google Cloud snapshots into a Statuspage vendor with a one-line error, writing nothing", async () => {
    const db = await freshLocation(dir);
    expect(redline(["import", summaries, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    const before = await inspect(db, "acme");
    expect(before.captures).toBeGreaterThan(0);
    const refused = redline(["import", gcpSnapshots, "--vendor", "acme", "--platform", "gcp", "--db", db]);
    expectOneLineRefusal(refused, /vendor acme is of the statuspage family \(statuspage-summary\), these snapshots of the gcp family: .*--add-source/);
    expect(await inspect(db, "acme")).toEqual(before);
  });

  it("takes them with --add-source, as another source of the same vendor", async () => {
    const db = await freshLocation(dir);
    redline(["import", summaries, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    const before = await inspect(db, "acme");
    const added = redline(["import", gcpSnapshots, "--vendor", "acme", "--platform", "gcp", "--add-source", "--db", db]);
    expect(added.code).toBe(0);
    const after = await inspect(db, "acme");
    expect(after.captures).toBe(before.captures + 1);
    expect(after.platforms).toEqual(["gcp", "statuspage-summary"]);
    expect(after.vendors).toBe(1);
  });

  it("takes snapshots of the vendor's own family without the flag", async () => {
    const db = await freshLocation(dir);
    expect(redline(["vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", "https://status.acme.example", "--db", db]).code).toBe(0);
    expect(redline(["import", atomSnapshots, "--vendor", "acme", "--platform", "statuspage-atom", "--db", db]).code).toBe(0);
    expect(redline(["import", maintenances, "--vendor", "mail", "--platform", "statuspage-incidents", "--db", db]).code).toBe(0);
    expect(redline(["import", summaries, "--vendor", "mail", "--platform", "statuspage-summary", "--db", db]).code).toBe(0);
    expect((await inspect(db, "acme")).platforms).toEqual(["statuspage-atom"]);
    expect((await inspect(db, "mail")).platforms).toEqual(["statuspage-incidents", "statuspage-summary"]);
  });

  it("refuses --add-source for a vendor that does not exist, which is likely a mistyped slug", async () => {
    const db = await freshLocation(dir);
    redline(["import", summaries, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    const before = await inspect(db, "acme");
    expectOneLineRefusal(redline(["import", gcpSnapshots, "--vendor", "acmee", "--platform", "gcp", "--add-source", "--db", db]), /no vendor acmee to add a source to/);
    expect(await inspect(db, "acme")).toEqual(before);
  });

  it("import-git refuses another family's file history the same way, and takes it with --add-source", async () => {
    const repo = path.join(dir, "gcp-repo");
    fs.mkdirSync(repo);
    const git = (...args: string[]) => execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", ...args], { stdio: "pipe" });
    git("init", "-q");
    fs.copyFileSync(path.join(FIXTURES, "gcp", "current-schema-handwritten.json"), path.join(repo, "incidents.json"));
    git("add", "incidents.json");
    git("commit", "-q", "-m", "snapshot");
    const db = await freshLocation(dir);
    redline(["import", summaries, "--vendor", "acme", "--platform", "statuspage-summary", "--db", db]);
    const before = await inspect(db, "acme");
    expectOneLineRefusal(redline(["import-git", repo, "incidents.json", "--vendor", "acme", "--platform", "gcp", "--db", db]), /the gcp family: .*--add-source/);
    expect(await inspect(db, "acme")).toEqual(before);
    expect(redline(["import-git", repo, "incidents.json", "--vendor", "acme", "--platform", "gcp", "--add-source", "--db", db]).code).toBe(0);
    expect((await inspect(db, "acme")).captures).toBe(before.captures + 1);
  });
});

describe(`vendors add on an existing slug (${testDatabaseDialect})`, () => {
  const add = (db: string, platform: string, url: string, ...extra: string[]) =>
    redline(["vendors", "add", "--slug", "jira", "--name", "Jira", "--platform", platform, "--url", url, ...extra, "--db", db]);

  it("refuses an imported vendor, saying it is imported and how to poll it", async () => {
    const db = await freshLocation(dir);
    redline(["import", summaries, "--vendor", "jira", "--platform", "statuspage-summary", "--db", db]);
    const before = await inspect(db, "jira");
    expectOneLineRefusal(add(db, "statuspage", "https://jira-software.status.atlassian.com"), /vendor jira already exists: imported as statuspage-summary, not polled; .*--add-source and a statuspage-family platform/);
    expect(await inspect(db, "jira")).toEqual(before);
  });

  it("polls an imported vendor with --add-source when the live platform is of its family, keeping its history", async () => {
    const db = await freshLocation(dir);
    redline(["import", summaries, "--vendor", "jira", "--platform", "statuspage-summary", "--db", db]);
    const before = await inspect(db, "jira");
    const added = add(db, "statuspage", "https://jira-software.status.atlassian.com", "--add-source");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("its archived history stays");
    const after = await inspect(db, "jira");
    expect(after.vendor).toEqual({ platform: "statuspage", url: "https://jira-software.status.atlassian.com/", enabled: 1, origin: "user" });
    expect(after.captures).toBe(before.captures);
    expect(after.incidents).toBe(before.incidents);
  });

  it("refuses --add-source with a live platform of another family, naming both families", async () => {
    const db = await freshLocation(dir);
    redline(["import", summaries, "--vendor", "jira", "--platform", "statuspage-summary", "--db", db]);
    const before = await inspect(db, "jira");
    expectOneLineRefusal(add(db, "gcp", "https://status.cloud.google.com", "--add-source"), /vendor jira is of the statuspage family \(statuspage-summary\), live platform gcp of the gcp family/);
    expect(await inspect(db, "jira")).toEqual(before);
  });

  it("refuses a polled vendor even with --add-source, and polls a removed one again only with it", async () => {
    const db = await freshLocation(dir);
    expect(add(db, "statuspage", "https://jira.status.example").code).toBe(0);
    expectOneLineRefusal(add(db, "statuspage", "https://other.status.example", "--add-source"), /already exists: polled from https:\/\/jira\.status\.example\/ with statuspage \(added by hand\); .*vendors remove jira/);
    redline(["vendors", "remove", "jira", "--db", db]);
    expectOneLineRefusal(add(db, "statuspage", "https://jira.status.example"), /already exists: removed, its history kept \(was polled from https:\/\/jira\.status\.example\/ with statuspage\); to poll it again.*--add-source/);
    expect((await inspect(db, "jira")).vendor?.enabled).toBe(0);
    expect(add(db, "statuspage", "https://jira-moved.status.example", "--add-source").code).toBe(0);
    expect((await inspect(db, "jira")).vendor).toMatchObject({ url: "https://jira-moved.status.example/", enabled: 1 });
  });

  it("refuses --add-source for a slug that does not exist", async () => {
    const db = await freshLocation(dir);
    expect(add(db, "statuspage", "https://acme.status.example").code).toBe(0);
    expectOneLineRefusal(
      redline(["vendors", "add", "--slug", "jria", "--name", "Jira", "--platform", "statuspage", "--url", "https://jira.status.example", "--add-source", "--db", db]),
      /no vendor jria to add a source to/,
    );
    expect((await inspect(db, "jria")).vendors).toBe(1);
  });
});
