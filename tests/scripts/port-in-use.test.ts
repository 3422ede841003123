import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { closeStore, openStore } from "@/db/client";
import { databaseEnvironment } from "@/lib/env";
import { EXIT_CONFIG } from "@/lib/listen-failure";
import { ensureBuild, NEXT_ENV } from "@/tests/e2e/support/build-app";
import { ROOT } from "@/tests/e2e/support/commands";
import { freshLocation, queryRows } from "@/tests/support/database";
import { testDatabaseDialect } from "@/tests/support/test-database-settings";
import { watchProcess } from "@/tests/support/watch-process";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "redline-port-in-use-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const holders: net.Server[] = [];
afterEach(async () => {
  await Promise.all(holders.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A port something else already listens on, as a Redline started before would. */
function takenPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    holders.push(server);
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (typeof address === "object" && address) resolve(address.port);
      else reject(new Error("no port"));
    });
  });
}

/** A command of the checkout run to its end, in a process group of its own, with its output by line. */
async function runToExit(command: string, args: string[], env: Record<string, string>) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const watched = watchProcess(child);
  try {
    const { code } = await watched.exited;
    return { code, stdout: watched.stdout, stderr: watched.stderr };
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // Every process of the group has exited.
    }
  }
}

/** The archive's tables: none while nothing has opened it as an archive. */
async function tablesOf(location: string): Promise<string[]> {
  if (testDatabaseDialect === "sqlite") return fs.existsSync(location) ? ["(the file exists)"] : [];
  const db = await openStore(location, { migrate: false });
  try {
    const rows = await queryRows<{ name: string }>(db, "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'");
    return rows.map((r) => r.name);
  } finally {
    await closeStore(db);
  }
}

const inUse = (port: number) => `port ${port} on 127.0.0.1 is in use (another Redline?); set PORT to another port`;

describe(`a port in use (${testDatabaseDialect})`, () => {
  it("npm start exits 1 at once naming the port and PORT: no web server started, none restarted, no archive made", async () => {
    const port = await takenPort();
    const location = await freshLocation(dir, { name: "start", migrated: false });
    const start = await runToExit("npm", ["start"], { ...databaseEnvironment(location), PORT: String(port) });
    expect(start.stderr).toContain(`redline: ${inUse(port)}`);
    expect(start.code).toBe(1);
    expect(start.stdout.filter((line) => /serving on|database .* is migrated|running/.test(line))).toEqual([]);
    expect(start.stderr.filter((line) => / started \(pid | restarting | crashes within /.test(line))).toEqual([]);
    expect(await tablesOf(location)).toEqual([]);
  });

  it("the demo exits 1 at once naming the port and PORT, before it builds, simulates or replaces its archive", async () => {
    const port = await takenPort();
    const demo = await runToExit(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts", "demo.ts")], { PORT: String(port) });
    expect(demo.stderr).toContain(`redline demo: ${inUse(port)}`);
    expect(demo.code).toBe(1);
    expect(demo.stdout).toEqual([]);
  });

  it("the web server, should the port be taken after start looked, exits EXIT_CONFIG (the code its supervisor does not restart) naming the port and PORT", async () => {
    await ensureBuild();
    const port = await takenPort();
    const location = await freshLocation(dir, { name: "web" });
    const web = await runToExit(process.execPath, [path.join(ROOT, "dist", "web-server.cjs")], { ...NEXT_ENV, ...databaseEnvironment(location), PORT: String(port) });
    expect(web.stderr).toContain(`web: ${inUse(port)}`);
    expect(web.code).toBe(EXIT_CONFIG);
  }, 600_000);
});
