/**
 * What the load benchmarks share: the web app built into .next-bench, the web server and the bare
 * http + better-sqlite3 server started as child processes on loopback, autocannon driving them
 * at 50 connections, and the figures printed as one table.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { type BenchDatabase, dialectLabel } from "@/bench/bench-databases";
import { cpuProfileArgs } from "@/bench/cpu-profile";
import { databaseEnvironment } from "@/lib/env";
import { newestMtime } from "@/scripts/newest-mtime";

const ROOT = path.resolve(__dirname, "..");
const DIST_DIR = ".next-bench";
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const BUILD_INPUTS = ["app", "components", "lib", "db", "server", "public", "proxy.ts", "next.config.ts", "package.json", "package-lock.json", "tsconfig.json"];
export const CONNECTIONS = 50;
export const SECONDS = Number(process.env.BENCH_WEB_SECONDS ?? 15);
const WARMUP_REQUESTS = 500;

export interface Target {
  name: string;
  paths: string[];
  /** Rendered on every request (the page cache told to revalidate), or served once rendered. */
  fresh?: boolean;
  /** Headers for a path (a reader's If-None-Match); the answers then count as 2xx or 304. */
  headersFor?: (path: string) => Record<string, string>;
  /** Something run beside the measured load (not the warm-up), stopped after it; what it says is printed. */
  alongside?: () => Promise<{ stop(): Promise<string> }>;
}

const FRESH = { "cache-control": "no-cache" };

/** BENCH_WEB_ONLY=incident,change: only the targets whose names contain one of those words; every one without it. */
export function selectTargets<T extends Target>(targets: readonly T[]): T[] {
  const only = (process.env.BENCH_WEB_ONLY ?? "").split(",").filter(Boolean);
  return targets.filter((t) => only.length === 0 || only.some((word) => t.name.includes(word)));
}

export interface LoadResult {
  target: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
  kbPerResponse: number;
  serverCpuMsPerReq: number;
  /** What the target's `alongside` did during the load. */
  alongside?: string;
}


/**
 * Build into .next-bench when missing or older than the sources. Compile and generate are run as
 * two steps because a plain `next build` type-checks and rewrites tsconfig.json to include its
 * build folder; `npm test` type-checks anyway.
 */
export function ensureBuilt(): void {
  const buildId = path.join(ROOT, DIST_DIR, "BUILD_ID");
  const inputs = BUILD_INPUTS.map((p) => path.join(ROOT, p)).filter((p) => fs.existsSync(p));
  if (fs.existsSync(buildId) && !inputs.some((p) => newestMtime(p) > fs.statSync(buildId).mtimeMs)) return;
  const started = performance.now();
  for (const mode of ["compile", "generate"]) {
    const build = spawnSync(process.execPath, [NEXT_BIN, "build", "--experimental-build-mode", mode], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, REDLINE_NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" },
    });
    if (build.status !== 0) throw new Error(`next build (${mode}) into ${DIST_DIR} failed`);
  }
  console.log(`built the web app into ${DIST_DIR} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * A helper process beside the load, started once it has printed a line matching `ready`, and
 * stopped with SIGTERM; what it printed last is its summary.
 */
export async function startHelper(args: string[], ready: RegExp): Promise<{ stop(): Promise<string> }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let lastLine = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d: Buffer) => {
      output += d.toString();
      lastLine = output.trimEnd().split("\n").at(-1) ?? "";
      if (ready.test(output)) resolve();
    });
    child.stderr?.on("data", (d: Buffer) => { output += d.toString(); });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code} before it was ready:\n${output.slice(-2000)}`)));
  });
  return {
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
        child.kill("SIGTERM");
        await exited;
      }
      return lastLine;
    },
  };
}

/** Start a server process and wait until it answers `probe`; its output is shown only if it fails. */
async function startServer(args: string[], env: Record<string, string>, probe: string): Promise<ChildProcess> {
  // The server writes a CPU profile when it stops, when asked (bench/cpu-profile.ts).
  const child = spawn(process.execPath, [...cpuProfileArgs(), ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => { output += d.toString(); });
  child.stderr?.on("data", (d: Buffer) => { output += d.toString(); });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(probe)).ok) return child;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`server ${args.join(" ")} did not answer ${probe}:\n${output.slice(-2000)}`);
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The share of all CPUs' time spent busy over `ms`, from /proc/stat; 0 where there is none. */
export async function sampleBusyShare(ms: number): Promise<number> {
  const read = () => {
    try {
      const fields = (fs.readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
      return { total: fields.reduce((a, b) => a + b, 0), idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
    } catch {
      return { total: 0, idle: 0 };
    }
  };
  const before = read();
  await new Promise((r) => setTimeout(r, ms));
  const after = read();
  const total = after.total - before.total;
  return total > 0 ? 1 - (after.idle - before.idle) / total : 0;
}

/** CPU time (user + system) a process has used, in ms, from /proc; 0 where there is none. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** Runs for `limit.seconds`, or until `limit.amount` responses; each request takes the next path. */
async function load(base: string, target: Target, connections: number, limit: { seconds: number } | { amount: number }) {
  let next = 0;
  return autocannon({
    url: base,
    connections,
    headers: target.fresh ? FRESH : {},
    // autocannon spreads its options over its defaults: an undefined duration would replace them.
    ...("seconds" in limit ? { duration: limit.seconds } : { amount: limit.amount }),
    timeout: 30,
    requests: [
      {
        method: "GET",
        setupRequest: (request) => {
          const path = target.paths[next++ % target.paths.length] ?? "/";
          return { ...request, path, headers: { ...request.headers, ...target.headersFor?.(path) } };
        },
      },
    ],
  });
}

async function measure(base: string, target: Target, server: ChildProcess): Promise<LoadResult> {
  const first = await fetch(`${base}${target.paths[0] ?? "/"}`, { headers: target.fresh ? FRESH : {} });
  if (!first.ok) throw new Error(`${target.name}: ${target.paths[0]} answered ${first.status}`);
  await first.arrayBuffer();
  // Every path is requested once first, so a cached target is measured with its pages rendered.
  await load(base, target, 10, { amount: Math.max(WARMUP_REQUESTS, target.paths.length) });
  const beside = await target.alongside?.();
  const cpuBefore = cpuMs(server.pid);
  const r = await load(base, target, CONNECTIONS, { seconds: SECONDS });
  const cpuAfter = cpuMs(server.pid);
  const alongside = await beside?.stop();
  const ok = r["2xx"] + (target.headersFor ? r["3xx"] : 0);
  return {
    target: target.name,
    reqPerSec: ok / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    errors: r.errors,
    non2xx: r.non2xx,
    kbPerResponse: ok > 0 ? r.throughput.total / ok / 1024 : 0,
    serverCpuMsPerReq: ok > 0 ? (cpuAfter - cpuBefore) / ok : 0,
    alongside,
  };
}

export function printResults(rows: readonly LoadResult[]): void {
  console.log("target                          req/s   p50 ms   p99 ms  errors  non-2xx  KB/resp  server CPU ms/req");
  for (const r of rows) {
    console.log(
      `${r.target.padEnd(30)} ${r.reqPerSec.toFixed(0).padStart(6)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ` +
        `${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)} ${r.kbPerResponse.toFixed(1).padStart(8)} ${r.serverCpuMsPerReq.toFixed(2).padStart(18)}`,
    );
    if (r.alongside) console.log(`  beside it: ${r.alongside}`);
  }
}

/** Each target's figures on each database of the run, one row a target (bench/bench-databases.ts). */
export function printSideBySide(runs: ReadonlyArray<{ database: BenchDatabase; result: readonly LoadResult[] }>): void {
  if (runs.length < 2) return;
  const targets = [...new Set(runs.flatMap((r) => r.result.map((x) => x.target)))];
  console.log(`\n${"target".padEnd(30)} ${runs.map((r) => `${dialectLabel(r.database.dialect)}: req/s, p99 ms, CPU ms/req`.padEnd(40)).join(" ")}`);
  for (const target of targets) {
    const cells = runs.map((r) => {
      const x = r.result.find((y) => y.target === target);
      return (x ? `${x.reqPerSec.toFixed(0)}, ${x.p99.toFixed(0)}, ${x.serverCpuMsPerReq.toFixed(2)}` : "-").padEnd(40);
    });
    console.log(`${target.padEnd(30)} ${cells.join(" ")}`);
  }
}

export interface WebServerOptions {
  /** Added to or overriding its environment. */
  env?: Record<string, string>;
  /** Run from its bundle in dist/ (built first when stale), as `npm start -- --role web` runs it, instead of its TypeScript through tsx. */
  bundled?: boolean;
}

/** The bundles of dist/ built when missing or older than their sources, as `npm start` does first. */
async function ensureBundles(): Promise<void> {
  const bundles = createRequire(__filename)(path.join(ROOT, "scripts", "build-cli.cjs")) as { isBuildFresh(): boolean; buildCli(): Promise<void> };
  if (!bundles.isBuildFresh()) await bundles.buildCli();
}

/** The web server (Next.js behind its page cache) over `database` (a SQLite file or a postgres:// URL), each target measured in turn. */
export async function measureWebServer(
  database: string, targets: readonly Target[], prepare?: (base: string) => Promise<void>, { env = {}, bundled = false }: WebServerOptions = {},
): Promise<LoadResult[]> {
  if (bundled) await ensureBundles();
  const port = await freePort();
  const server = await startServer(
    bundled ? [path.join(ROOT, "dist", "web-server.cjs")] : ["--import", "tsx", path.join(ROOT, "server", "web-server.ts")],
        // One client (this process) makes every request: the per-client limit would measure itself.
    { ...databaseEnvironment(database), REDLINE_NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), REDLINE_RATE_LIMIT_PER_SECOND: "0", ...env },
    `http://127.0.0.1:${port}/search`,
  );
  const results: LoadResult[] = [];
  try {
    await prepare?.(`http://127.0.0.1:${port}`);
    for (const target of targets) results.push(await measure(`http://127.0.0.1:${port}`, target, server));
  } finally {
    await stopServer(server);
  }
  return results;
}

/** The bare http + better-sqlite3 server over `dbFile`, answering incident paths with their row. */
export async function measureBareServer(dbFile: string, target: Target): Promise<LoadResult> {
  const port = await freePort();
  const server = await startServer(
    ["--import", "tsx", path.join(__dirname, "bare-incident-server.ts"), dbFile, String(port)],
    {},
    `http://127.0.0.1:${port}${target.paths[0] ?? "/"}`,
  );
  try {
    return await measure(`http://127.0.0.1:${port}`, target, server);
  } finally {
    await stopServer(server);
  }
}

/** One line about the machine, and a warning when something else keeps the CPUs busy. */
export async function describeMachine(): Promise<void> {
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s per target`);
  const busy = await sampleBusyShare(2_000);
  if (busy > 0.2) console.log(`warning: other processes keep the CPUs ${(busy * 100).toFixed(0)}% busy: the figures will be low`);
}
