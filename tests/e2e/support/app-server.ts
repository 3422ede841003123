import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { databaseEnvironment } from "@/lib/env";
import { NEXT_ENV } from "@/tests/e2e/support/build-app";
import { ROOT } from "@/tests/e2e/support/commands";
import { childGone, waitFor } from "@/tests/support/observe";

export class AppServerError extends Error {
  readonly kind = "app-server";
}

/** The operator token the e2e servers run with. */
export const E2E_OPERATOR_TOKEN = "e2e-operator-token-0123456789";

export interface AppServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** A loopback port free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new AppServerError("e2e: no free port"))));
    });
  });
}

/** SIGTERM to a detached process's group, SIGKILL if it has not exited 10 s later. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const pid = child.pid;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // The server's own workers are in its process group (it was started detached).
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const killLater = setTimeout(() => signal("SIGKILL"), 10_000);
  return exited.finally(() => clearTimeout(killLater));
}

/** The web server (Next.js behind the page cache) on a free loopback port over this database (a SQLite file or a postgres:// URL), once it answers. */
export async function startAppServer(database: string, logFile: string, env: Record<string, string> = {}): Promise<AppServer> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, "w");
  // Its prebuilt bundle, as `npm start` runs it (rebuilt once per run when stale: tests/support/cli-bundle-setup.ts).
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "web-server.cjs")], {
    cwd: ROOT,
    env: { ...process.env, ...NEXT_ENV, ...databaseEnvironment(database), NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), REDLINE_OPERATOR_TOKEN: E2E_OPERATOR_TOKEN, ...env },
    stdio: ["ignore", log, log],
    detached: true,
  });
  fs.closeSync(log);
  const server = { baseUrl, stop: () => stopProcess(child) };
  // It says so once Next is prepared and the port is open; however long that takes, only the hook's timeout bounds it.
  const listening = () => fs.readFileSync(logFile, "utf8").includes("web: listening on ");
  try {
    await waitFor("the web server to listen", listening, () => childGone(child));
  } catch (error) {
    throw new AppServerError(`e2e: the web server exited ${child.exitCode ?? child.signalCode}; see ${logFile}`, { cause: error });
  }
  const response = await fetch(`${baseUrl}/vendors`);
  await response.arrayBuffer();
  if (!response.ok) {
    await server.stop();
    throw new AppServerError(`e2e: the web server answered /vendors with ${response.status}; see ${logFile}`);
  }
  return server;
}
