import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { startSimulator } from "@/simulator/server";
import { type AppServer, startAppServer } from "@/tests/e2e/support/app-server";
import { ensureBuild } from "@/tests/e2e/support/build-app";
import { ROOT, runCommand } from "@/tests/e2e/support/commands";
import { copyDatabase, ensureSeedDatabase, SCREENSHOT_DIR } from "@/tests/e2e/support/seed-database";
import { withPostgresDatabase } from "@/tests/support/postgres";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

/** The servers share the suite's database: a copy of the seeded SQLite file, or a database of the run's PostgreSQL cluster. */
const postgres = testDatabaseDialect === "postgres" ? withPostgresDatabase({ prefix: "redline_two_web" }) : null;
const servers: AppServer[] = [];
let database = "";
let workDir = "";

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-e2e-two-web-"));
  if (postgres) {
    await ensureBuild();
    database = postgres.url;
    // Migrated before either server opens it, as a deployment's first process would.
    await closeStore(await openStore(database));
  } else {
    const [seeded] = await Promise.all([ensureSeedDatabase(), ensureBuild()]);
    database = copyDatabase(seeded, workDir);
  }
  for (const name of ["one", "two"]) servers.push(await startAppServer(database, path.join(SCREENSHOT_DIR, `two-web-servers-${testDatabaseDialect}-${name}.log`)));
  // A guard against a hung start, not a budget: the shared build can take minutes on a busy machine.
}, 20 * 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

async function read(server: AppServer, pathname: string): Promise<{ cache: string | null; body: string }> {
  const response = await fetch(`${server.baseUrl}${pathname}`);
  expect(response.status).toBe(200);
  return { cache: response.headers.get("x-redline-cache"), body: await response.text() };
}

async function latestTitle(slug: string): Promise<string> {
  const db = await openStore(database, { migrate: false });
  try {
    const row = await db.connection
      .prepare<[string], { title: string }>(
        "SELECT i.title FROM incidents i JOIN vendors v ON v.id = i.vendor_id WHERE v.slug = ? ORDER BY i.last_changed_at DESC, i.id DESC LIMIT 1",
      )
      .get(slug);
    return row?.title ?? "";
  } finally {
    await closeStore(db);
  }
}

describe(`two web servers on one database (${testDatabaseDialect})`, () => {
  it("both show a version the poller records on their first request after it, their cached pages included", async () => {
    const sim = await startSimulator({ count: 1, families: ["statuspage"], acceleration: 0, start: "2026-03-02T00:00:00.000Z", seed: 21 });
    const vendor = sim.vendors[0];
    if (!vendor) throw new Error("no simulated vendor");
    const added = await runCommand(
      process.execPath,
      [REDLINE_BUNDLE, "vendors", "add", "--slug", vendor.slug, "--name", vendor.name, "--platform", vendor.family, "--url", vendor.url, "--interval", "10", "--db", database],
      { REDLINE_ALLOW_PRIVATE_URLS: "1" },
    );
    expect(added.code, added.stderr).toBe(0);
    const poller = spawn(process.execPath, [REDLINE_BUNDLE, "poll", "--db", database], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0" },
    });
    const polled = watchProcess(poller);
    const recorded = () => polled.stdout.filter((l) => l.includes(`${vendor.slug}: ok`) && l.includes("new versions")).length;
    try {
      await polled.until("a first poll that recorded versions", () => recorded() >= 1);
      const pages = [`/vendors/${vendor.slug}/changes`, "/", "/feed.atom"];
      for (const server of servers) for (const pathname of pages) await read(server, pathname);
      for (const server of servers) for (const pathname of pages) expect((await read(server, pathname)).cache, `${server.baseUrl}${pathname}`).toBe("hit");

      const before = recorded();
      sim.setClock("2026-03-03T12:00:00.000Z");
      await polled.until("a poll that recorded the vendor's changes", () => recorded() > before);
      const title = await latestTitle(vendor.slug);
      expect(title).not.toBe("");
      for (const server of servers) {
        const page = await read(server, `/vendors/${vendor.slug}/changes`);
        expect(page.cache, server.baseUrl).toBe("miss");
        expect(page.body, server.baseUrl).toContain(title.replaceAll("&", "&amp;"));
        expect((await read(server, `/vendors/${vendor.slug}/changes`)).cache).toBe("hit");
      }
    } finally {
      poller.kill("SIGTERM");
      await polled.exited;
      await sim.stop();
    }
  });
});
