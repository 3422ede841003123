import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { E2E_OPERATOR_TOKEN, freePort, stopProcess } from "@/tests/e2e/support/app-server";
import { ensureBuild, NEXT_ENV } from "@/tests/e2e/support/build-app";
import { ROOT } from "@/tests/e2e/support/commands";
import { launchChromium } from "@/tests/e2e/support/e2e-app";
import { copyDatabase, copyPostgresDatabase, ensurePostgresSeed, ensureSeedDatabase, SCREENSHOT_DIR } from "@/tests/e2e/support/seed-database";
import { closeStore, openStore } from "@/db/client";
import { databaseEnvironment } from "@/lib/env";
import { queryRows } from "@/tests/support/database";
import { postgresAdminUrl } from "@/tests/support/postgres";
import { dropPostgresDatabase } from "@/tests/support/postgres-databases";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";

const INCIDENT = "/vendors/acme/incidents/acmeapi00001";

let workDir: string | undefined;
/** The archive the supervised roles share, on the suite's database: a SQLite file or a PostgreSQL URL. */
let database = "";
let baseUrl = "";
let supervisor: ChildProcess | undefined;
let watched: ReturnType<typeof watchProcess> | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  const [seeded] = await Promise.all([ensureSeedDatabase(), ensureBuild()]);
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-e2e-supervised-"));
  database = testDatabaseDialect === "postgres" ? await copyPostgresDatabase(await ensurePostgresSeed(seeded), "supervised") : copyDatabase(seeded, workDir);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  supervisor = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests", "e2e", "support", "run-supervised-app.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...NEXT_ENV, ...databaseEnvironment(database), HOST: "127.0.0.1", PORT: String(port), REDLINE_OPERATOR_TOKEN: E2E_OPERATOR_TOKEN },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  watched = watchProcess(supervisor);
  browser = await launchChromium();
}, 600_000);

afterAll(async () => {
  await browser?.close();
  if (supervisor) await stopProcess(supervisor);
  if (database.startsWith("postgres")) await dropPostgresDatabase(postgresAdminUrl(), database);
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
}, 60_000);

function running() {
  if (!supervisor || !watched || !browser) throw new Error("e2e: the supervisor did not start (see the beforeAll error)");
  return { supervisor, watched, browser };
}

/** The pids the supervisor said it started the web server as, in order. */
function webPids(lines: readonly string[]): number[] {
  return lines.flatMap((line) => {
    const pid = /^redline: web started \(pid (\d+)\)$/.exec(line)?.[1];
    return pid ? [Number(pid)] : [];
  });
}

async function eventsOf(process: string): Promise<string[]> {
  const db = await openStore(database, { migrate: false });
  try {
    return (await queryRows<{ event: string }>(db, "SELECT event FROM supervisor_events WHERE process = ? ORDER BY id", process)).map((r) => r.event);
  } finally {
    await closeStore(db);
  }
}

describe("npm start's supervisor", () => {
  it("brings the web server back after it is killed, serving health and archive pages again, and the operator page says so", async () => {
    const { supervisor, watched, browser } = running();
    const listening = () => watched.stdout.filter((line) => line.startsWith("web: listening on")).length;
    await watched.until("the web server listens", () => listening() === 1 && webPids(watched.stderr).length === 1);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
    const [first] = webPids(watched.stderr);
    if (first === undefined) throw new Error("no web pid");
    process.kill(first, "SIGKILL");
    await watched.until("the web server listens again", () => listening() === 2);
    expect(watched.stderr).toContain("redline: web exited (SIGKILL); restarting in 1 s");
    expect(webPids(watched.stderr)).toHaveLength(2);
    expect(webPids(watched.stderr)[1]).not.toBe(first);
    expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);

    const page = await browser.newPage({ baseURL: baseUrl });
    const incident = await page.goto(INCIDENT);
    expect(incident?.status()).toBe(200);
    await expect(page.locator("h1").textContent()).resolves.toBe("Elevated API error rates");
    await page.goto("/operator");
    await page.getByLabel("Operator token").fill(E2E_OPERATOR_TOKEN);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/operator$/);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "supervised-restart-operator.png"), fullPage: true });
    await expect(page.locator('li[data-process="web"]').textContent()).resolves.toMatch(/^web restarted 1 time in the last 24 hours, last at .+ after it exited \(SIGKILL, up .+\)\.$/);
    await expect(page.locator('li[data-process="poller"]').textContent()).resolves.toMatch(/^poller not restarted in the last 24 hours; started /);
    await page.context().close();

    expect(await eventsOf("web")).toEqual(["started", "exited", "restarting", "started"]);
    expect(await eventsOf("poller")).toEqual(["started"]);
    supervisor.kill("SIGTERM");
    expect(await watched.exited).toEqual({ code: 0, signal: null });
    expect(await eventsOf("web")).toEqual(["started", "exited", "restarting", "started", "exited"]);
    expect(await eventsOf("poller")).toEqual(["started", "exited"]);
  }, 300_000);
});
