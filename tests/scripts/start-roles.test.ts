import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { databaseEnvironment } from "@/lib/env";
import { startSimulator } from "@/simulator/server";
import { freePort } from "@/tests/e2e/support/app-server";
import { ensureBuild, NEXT_ENV } from "@/tests/e2e/support/build-app";
import { ROOT, runCommand } from "@/tests/e2e/support/commands";
import { listeningPortsOfGroup } from "@/tests/scripts/support/listening-ports";
import { countRows, freshLocation, queryRows } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";
import { REDLINE_BUNDLE } from "@/tests/support/redline-bundle";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-start-roles-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const POLL_ENV = { REDLINE_ALLOW_PRIVATE_URLS: "1", REDLINE_HOST_INTERVAL_MS: "0" };
const SIMULATED = { vendors: [{ slug: "acme", family: "statuspage" }], acceleration: 0, start: "2026-03-02T00:00:00.000Z", seed: 3 };

/** A signal to every process of a detached child's group, as a service manager stops a service. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // Every process of the group has exited.
  }
}

/** `npm start -- <args>` in a process group of its own, so a test can find and stop all of it. */
function npmStart(args: string[], env: Record<string, string>) {
  const child = spawn("npm", ["start", "--", ...args], {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const watched = watchProcess(child);
  /** The children the supervisor started, by name, in order. */
  const started = () => watched.stderr.flatMap((line) => /^redline: (\S+) started \(pid \d+\)$/.exec(line)?.[1] ?? []);
  const listeningPorts = () => {
    if (child.pid === undefined) throw new Error("npm start did not start");
    return listeningPortsOfGroup(child.pid);
  };
  return { child, ...watched, started, listeningPorts };
}

type NpmStart = ReturnType<typeof npmStart>;

/**
 * `npm start -- <args>` while `check` runs, then stopped as a service manager stops it: SIGTERM to
 * the whole group, since npm does not pass it on to its script. Resolves once every process exited.
 */
async function whileStarted(args: string[], env: Record<string, string>, check: (start: NpmStart) => Promise<void>): Promise<void> {
  const start = npmStart(args, env);
  try {
    await check(start);
    signalGroup(start.child, "SIGTERM");
    await start.exited;
  } finally {
    signalGroup(start.child, "SIGKILL");
  }
  expect(start.stderr).toContain("redline: SIGTERM: stopping");
}

/** An archive on the suite's database with one vendor, on the simulator, due to be polled. */
async function databaseWithVendor(name: string, url: string): Promise<string> {
  const location = await freshLocation(dir, { name });
  const cli = REDLINE_BUNDLE;
  const added = await runCommand(process.execPath, [cli, "vendors", "add", "--slug", "acme", "--name", "Acme", "--platform", "statuspage", "--url", url, "--db", location], POLL_ENV);
  expect(added.code, added.stderr).toBe(0);
  return location;
}

/** How many rows a table of the archive has, on a connection of the test's own. */
async function rowsIn(location: string, table: string): Promise<number> {
  const db = await openStore(location, { migrate: false });
  try {
    return await countRows(db, table);
  } finally {
    await closeStore(db);
  }
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

async function eventsOf(location: string): Promise<string[]> {
  const db = await openStore(location, { migrate: false });
  try {
    const rows = await queryRows<{ process: string; event: string }>(db, "SELECT process, event FROM supervisor_events ORDER BY id");
    return rows.map((r) => `${r.process} ${r.event}`);
  } finally {
    await closeStore(db);
  }
}

/** The tables an archive has: none until something opens it as an archive. */
async function tablesOf(location: string): Promise<string[]> {
  const db = await openStore(location, { migrate: false });
  try {
    const rows = await queryRows<{ name: string }>(db, {
      sqlite: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
      postgres: "SELECT table_schema || '.' || table_name AS name FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY name",
    });
    return rows.map((r) => r.name);
  } finally {
    await closeStore(db);
  }
}

describe(`npm start with roles (${testDatabaseDialect})`, () => {
  it("runs only the poller with --role poller: it polls, opens no port, and adds no catalog with --no-catalog", async () => {
    const sim = await startSimulator(SIMULATED);
    try {
      const db = await databaseWithVendor("poller", sim.vendor("acme").url);
      const port = await freePort();
      await whileStarted(["--role", "poller", "--no-catalog"], { ...POLL_ENV, ...databaseEnvironment(db), PORT: String(port) }, async (start) => {
        await start.until("acme polled", () => start.stdout.some((line) => / acme: ok /.test(line)));
        expect(await rowsIn(db, "captures")).toBeGreaterThan(0);
        expect(sim.requests("acme").length).toBeGreaterThan(0);
        expect(start.started()).toEqual(["poller"]);
        expect(start.stdout).toContain("redline: running poller");
        expect(start.stdout.filter((line) => /serving on|catalog of/.test(line))).toEqual([]);
        expect(await rowsIn(db, "vendors")).toBe(1);
        expect(start.listeningPorts()).toEqual([]);
        expect(await refusesConnections(port)).toBe(true);
      });
      expect(await eventsOf(db)).toEqual(["poller started", "poller exited"]);
    } finally {
      await sim.stop();
    }
  }, 300_000);

  it("runs only the web server with --role web: it answers HTTP on PORT, polls nothing and adds no catalog", async () => {
    const sim = await startSimulator(SIMULATED);
    try {
      const [db] = await Promise.all([databaseWithVendor("web", sim.vendor("acme").url), ensureBuild()]);
      const port = await freePort();
      await whileStarted(["--role=web"], { ...NEXT_ENV, ...POLL_ENV, ...databaseEnvironment(db), PORT: String(port), REDLINE_PAGE_WORKERS: "2" }, async (start) => {
        await start.until("the web server listens", () => start.stdout.includes(`web: listening on http://127.0.0.1:${port}`));
        expect(start.stdout).toContain("web: incident, change and component pages are rendered on 2 worker threads (REDLINE_PAGE_WORKERS)");
        expect(start.stdout).not.toContain("redline: building the web app (first start or sources changed)");
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        const vendors = await fetch(`http://127.0.0.1:${port}/vendors`);
        expect(vendors.status).toBe(200);
        expect(await vendors.text()).toContain("Acme");
        expect(start.listeningPorts()).toContain(port);
        // Every child is started at once, long before the web server listens: a poller would be here.
        expect(start.started()).toEqual(["web"]);
        expect(start.stdout).toContain("redline: running web");
        expect(sim.requests("acme")).toEqual([]);
        expect(await rowsIn(db, "captures")).toBe(0);
        expect(await rowsIn(db, "vendors")).toBe(1);
      });
      expect(await eventsOf(db)).toEqual(["web started", "web exited"]);
    } finally {
      await sim.stop();
    }
  }, 600_000);

  /** `npm start --role web,cook` on the archive: what it printed, and how it exited. */
  async function startUnknownRole(location: string) {
    const start = npmStart(["--role", "web,cook"], { ...databaseEnvironment(location), PORT: String(await freePort()) });
    const { code } = await start.exited;
    expect(code).toBe(2);
    expect(start.stderr).toContain('redline: unknown role "cook": the roles are web, poller, notify');
    expect(start.started()).toEqual([]);
  }

  it("refuses an unknown role with the roles there are, exit 2, before touching the database", async () => {
    const location = await freshLocation(dir, { name: "unknown_role", migrated: false });
    await startUnknownRole(location);
    // A supervisor that opened the archive first would have migrated it and recorded its start.
    expect(await tablesOf(location)).toEqual([]);
  });

  it.skipIf(testDatabaseDialect !== "sqlite")("refuses an unknown role before making the database file (SQLite)", async () => {
    const file = await freshLocation(dir, { name: "unknown_role", migrated: false });
    await startUnknownRole(file);
    expect(fs.existsSync(file)).toBe(false);
  });
});
