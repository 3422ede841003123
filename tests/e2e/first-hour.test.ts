import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore, type RedlineDb } from "@/db/client";
import { savePollState } from "@/db/operations/poll-state";
import { addVendor, type VendorRow } from "@/db/settings/vendors";
import { type AppServer, startAppServer } from "@/tests/e2e/support/app-server";
import { ensureBuild } from "@/tests/e2e/support/build-app";
import { SCREENSHOT_DIR } from "@/tests/e2e/support/seed-database";
import { freshLocation } from "@/tests/support/database";
import { waitFor } from "@/tests/support/observe";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";

/** A new archive as `npm start` meets it before anything was archived: empty, then polled from a machine that reaches no vendor. */
const BANNER = 'id="polling-notice"';
let workDir = "";
let server: AppServer | undefined;
let db: RedlineDb | undefined;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-e2e-first-hour-"));
  const [location] = await Promise.all([freshLocation(workDir, { name: "first-hour" }), ensureBuild()]);
  db = await openStore(location);
  server = await startAppServer(location, path.join(SCREENSHOT_DIR, `first-hour-${testDatabaseDialect}.log`));
  // A guard against a hung start, not a budget: the shared build can take minutes on a busy machine.
}, 20 * 60_000);

afterAll(async () => {
  await server?.stop();
  if (db) await closeStore(db);
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

async function read(pathname: string): Promise<string> {
  if (!server) throw new Error("no server");
  const response = await fetch(`${server.baseUrl}${pathname}`);
  expect(response.status, pathname).toBe(200);
  return response.text();
}

async function settle(vendor: VendorRow, outcome: "ok" | "failed") {
  if (!db) throw new Error("no database");
  const at = new Date().toISOString();
  const error = outcome === "ok" ? null : `${vendor.slug}: ${vendor.url ?? ""}: getaddrinfo ENOTFOUND status.${vendor.slug}.example`;
  await savePollState(db, { vendorId: vendor.id, nextPollAt: at, lastPollAt: at, lastOutcome: outcome, lastError: error, consecutiveFailures: outcome === "ok" ? 0 : 1, backoffSeconds: 0 });
}

describe(`the first hour with a new archive (${testDatabaseDialect})`, () => {
  it("says an empty archive is empty and how to add vendors, on every tab, instead of 'No changes match'", async () => {
    for (const pathname of ["/", "/?show=degradations", "/?show=new", "/?show=all"]) {
      const html = await read(pathname);
      expect(html, pathname).toContain("This archive is empty: it has no vendor yet.");
      expect(html, pathname).toContain("npm run redline -- vendors add");
      expect(html, pathname).not.toContain("No changes match");
      expect(html, pathname).not.toContain(BANNER);
    }
  });

  it("shows a banner on every page while every vendor's latest poll failed, and drops it, cached pages too, once one succeeds", async () => {
    if (!db) throw new Error("no database");
    const vendors: VendorRow[] = [];
    for (const slug of ["globex", "initech"]) {
      vendors.push(await addVendor(db, { slug, name: slug, platform: "statuspage-summary", url: `https://status.${slug}.example/api/v2/summary.json` }, "user"));
    }
    for (const vendor of vendors) await settle(vendor, "failed");
    // The web process reads the pollers' outcomes at most once a second: look until it has.
    await waitFor("the banner on the home page", async () => (await read("/")).includes(BANNER));
    const home = await read("/");
    expect(home).toContain("Redline cannot reach any vendor: the last polls of all 2 vendors failed");
    expect(home).toContain("No incident archived yet. Redline polls 2 vendors");
    expect(await read("/vendors")).toContain(BANNER);
    expect(await read("/search")).toContain(BANNER);
    const [globex] = vendors;
    if (!globex) throw new Error("no vendor");
    await settle(globex, "ok");
    await waitFor("the banner to go from the home page", async () => !(await read("/")).includes(BANNER));
    expect(await read("/vendors")).not.toContain(BANNER);
    expect(await read("/search")).not.toContain(BANNER);
  });
});
