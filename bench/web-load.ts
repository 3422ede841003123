/**
 * Web load benchmark: the web server (Next.js behind its page cache) on loopback against the large
 * archive (bench/seed-large.ts), loaded by autocannon at 50 connections for 15 s per target (home,
 * incident pages, change pages, search), beside a bare Node http server that reads the same incident row with better-sqlite3
 * and returns it as JSON. Each server runs in its own process; autocannon runs in this one. Every
 * request names a different incident (or query); "rendered" targets ask the page cache to
 * revalidate, so every response is a fresh render, "cached" ones are served once rendered.
 * Goals: incident page p99 under 100 ms, and at least a third of the bare server's throughput.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { ensureLargeSeed } from "@/bench/seed-large";
import { createRandom } from "@/bench/synthetic-text";
import { toFtsQuery } from "@/db/queries/search";
import { paths } from "@/lib/incident-key";

const ROOT = path.resolve(__dirname, "..");
const DIST_DIR = ".next-bench";
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const BUILD_INPUTS = ["app", "components", "lib", "db", "server", "public", "proxy.ts", "next.config.ts", "package.json", "package-lock.json", "tsconfig.json"];
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_WEB_SECONDS ?? 15);
const WARMUP_REQUESTS = 500;
/** A typical incident: opened, updated, resolved, edited once, aged out of the feed. */
const TYPICAL_VERSIONS = 5;
const SAMPLE = 1_000;
const SEARCHES = [
  "replication lag", "expired certificate", "connection pools", "load balancer", "network partition",
  "memory leak", "webhook", "login failures", "failover", "throttling",
];

interface Target {
  name: string;
  paths: string[];
  /** Rendered on every request (the page cache told to revalidate), or served once rendered. */
  fresh?: boolean;
}

const FRESH = { "cache-control": "no-cache" };

interface LoadResult {
  target: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  kbPerResponse: number;
  serverCpuMsPerReq: number;
}

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

/**
 * Build into .next-bench when missing or older than the sources. Compile and generate are run as
 * two steps because a plain `next build` type-checks and rewrites tsconfig.json to include its
 * build folder; `npm test` type-checks anyway.
 */
function ensureBuilt(): void {
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

/** Start a server process and wait until it answers `probe`; its output is shown only if it fails. */
async function startServer(args: string[], env: Record<string, string>, probe: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
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
async function sampleBusyShare(ms: number): Promise<number> {
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
    requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: target.paths[next++ % target.paths.length] }) }],
  });
}

async function measure(base: string, target: Target, server: ChildProcess): Promise<LoadResult> {
  const first = await fetch(`${base}${target.paths[0] ?? "/"}`, { headers: target.fresh ? FRESH : {} });
  if (!first.ok) throw new Error(`${target.name}: ${target.paths[0]} answered ${first.status}`);
  await first.arrayBuffer();
  // Every path is requested once first, so a cached target is measured with its pages rendered.
  await load(base, target, 10, { amount: Math.max(WARMUP_REQUESTS, target.paths.length) });
  const cpuBefore = cpuMs(server.pid);
  const r = await load(base, target, CONNECTIONS, { seconds: SECONDS });
  const ok = r["2xx"];
  return {
    target: target.name,
    reqPerSec: ok / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    kbPerResponse: ok > 0 ? r.throughput.total / ok / 1024 : 0,
    serverCpuMsPerReq: ok > 0 ? (cpuMs(server.pid) - cpuBefore) / ok : 0,
  };
}

/** Typical incidents (and their versions) spread over every vendor, and the search queries. */
function pickTargets(file: string): { targets: Target[]; matches: number[] } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[number], { slug: string; providerId: string }>(
        `SELECT d.slug, i.provider_id AS providerId FROM incidents i JOIN vendors d ON d.id = i.vendor_id WHERE i.version_count = ? ORDER BY i.id`,
      )
      .all(TYPICAL_VERSIONS);
    const random = createRandom(7);
    const sample = Array.from({ length: Math.min(SAMPLE, rows.length) }, () => rows[Math.floor(random() * rows.length)]).filter(
      (r): r is { slug: string; providerId: string } => r !== undefined,
    );
    const count = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM incident_search WHERE incident_search MATCH ?");
    const matches = SEARCHES.map((q) => count.get(toFtsQuery(q) ?? q)?.n ?? 0);
    const incidents = sample.map((r) => paths.incident(r.slug, r.providerId));
    const changes = sample.map((r) => paths.version(r.slug, r.providerId, 1 + Math.floor(random() * TYPICAL_VERSIONS)));
    const searches = SEARCHES.map((q) => `/search?${new URLSearchParams({ q }).toString()}`);
    return {
      matches,
      targets: [
        { name: "home / (rendered)", paths: ["/"], fresh: true },
        { name: "home / (cached)", paths: ["/"] },
        { name: "incident page (rendered)", paths: incidents, fresh: true },
        { name: "incident page (cached)", paths: incidents },
        { name: "change page (rendered)", paths: changes, fresh: true },
        { name: "change page (cached)", paths: changes },
        { name: "search (rendered)", paths: searches, fresh: true },
        { name: "search (cached)", paths: searches },
        { name: "bare http + better-sqlite3", paths: incidents },
      ],
    };
  } finally {
    db.close();
  }
}

function print(rows: readonly LoadResult[]): void {
  console.log("target                          req/s   p50 ms   p99 ms  errors  non-2xx  KB/resp  server CPU ms/req");
  for (const r of rows) {
    console.log(
      `${r.target.padEnd(30)} ${r.reqPerSec.toFixed(0).padStart(6)} ${r.p50.toFixed(1).padStart(8)} ${r.p99.toFixed(1).padStart(8)} ` +
        `${String(r.errors).padStart(7)} ${String(r.non2xx).padStart(8)} ${r.kbPerResponse.toFixed(1).padStart(8)} ${r.serverCpuMsPerReq.toFixed(2).padStart(18)}`,
    );
  }
}

export async function runWebBenchmark(): Promise<void> {
  const seed = ensureLargeSeed();
  console.log(
    `database: ${path.relative(ROOT, seed.file)}, ${seed.vendors} vendors, ${seed.incidents} incidents, ${seed.versions} versions, ` +
      `${seed.sizeMb.toFixed(0)} MB${seed.built ? `, built in ${seed.seconds.toFixed(0)} s (${seed.captures} captures)` : " (cached)"}`,
  );
  ensureBuilt();
  const { targets, matches } = pickTargets(seed.file);
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}; ${CONNECTIONS} connections, ${SECONDS} s per target`);
  console.log(`search: ${SEARCHES.length} queries matching ${Math.min(...matches)} to ${Math.max(...matches)} incidents each`);
  const busy = await sampleBusyShare(2_000);
  if (busy > 0.2) console.log(`warning: other processes keep the CPUs ${(busy * 100).toFixed(0)}% busy: the figures will be low`);
  const results: LoadResult[] = [];
  const nextPort = await freePort();
  const next = await startServer(
    ["--import", "tsx", path.join(ROOT, "server", "web-server.ts")],
    { REDLINE_DB: seed.file, REDLINE_NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(nextPort) },
    `http://127.0.0.1:${nextPort}/search`,
  );
  try {
    for (const target of targets.slice(0, -1)) results.push(await measure(`http://127.0.0.1:${nextPort}`, target, next));
  } finally {
    await stopServer(next);
  }
  const barePort = await freePort();
  const bareTarget = targets.at(-1);
  if (!bareTarget) throw new Error("bench: no bare target");
  const bare = await startServer(
    ["--import", "tsx", path.join(__dirname, "bare-incident-server.ts"), seed.file, String(barePort)],
    {},
    `http://127.0.0.1:${barePort}${bareTarget.paths[0] ?? "/"}`,
  );
  try {
    results.push(await measure(`http://127.0.0.1:${barePort}`, bareTarget, bare));
  } finally {
    await stopServer(bare);
  }
  print(results);
  const bareResult = results.at(-1);
  for (const incident of results.filter((r) => r.target.startsWith("incident page"))) {
    if (!bareResult) break;
    const share = incident.reqPerSec / bareResult.reqPerSec;
    console.log(
      `goal ${incident.target}: p99 < 100 ms ${incident.p99 < 100 ? "met" : "NOT met"} (${incident.p99.toFixed(0)} ms); ` +
        `>= 1/3 of the bare server's req/s ${share >= 1 / 3 ? "met" : "NOT met"} (${(share * 100).toFixed(0)}%)`,
    );
  }
}
