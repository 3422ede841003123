/**
 * `npm run bench -- cli`: how long a command takes to start, whole process, from the TypeScript
 * sources (as `npm run redline` ran before the prebuilt CLI) and from the bundle, with and
 * without the launcher and npm; and how long the build takes (what `prepare` adds to `npm ci`).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const RUNS = 15;
const TIME = "/usr/bin/time";

interface Case {
  name: string;
  command: string[];
}

interface Run {
  wallMs: number;
  cpuMs: number | null;
}

/** One run: wall time from here, user + system time from time(1) when it is installed. */
function timeOnce(command: readonly string[], cpuFile: string): Run {
  const timed = fs.existsSync(TIME);
  const [file, ...args] = timed ? [TIME, "-f", "%U %S", "-o", cpuFile, ...command] : command;
  if (file === undefined) throw new Error("bench: empty command");
  const started = process.hrtime.bigint();
  const result = spawnSync(file, args, { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`bench: ${command.join(" ")} exited ${result.status}: ${result.stderr.toString().slice(0, 400)}`);
  if (!timed) return { wallMs, cpuMs: null };
  const [user, system] = fs.readFileSync(cpuFile, "utf8").trim().split(/\s+/).map(Number);
  return { wallMs, cpuMs: ((user ?? 0) + (system ?? 0)) * 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Every case RUNS times, in turn (A B C A B C …), so a change in the machine's load hits all alike. */
function measure(cases: readonly Case[], runs: number): Map<string, Run[]> {
  const cpuFile = path.join(os.tmpdir(), `redline-bench-cli-${process.pid}.txt`);
  const results = new Map(cases.map((c) => [c.name, [] as Run[]]));
  try {
    for (const c of cases) timeOnce(c.command, cpuFile);
    for (let i = 0; i < runs; i++) for (const c of cases) results.get(c.name)?.push(timeOnce(c.command, cpuFile));
  } finally {
    fs.rmSync(cpuFile, { force: true });
  }
  return results;
}

function printTable(results: Map<string, Run[]>): void {
  console.log("| command | wall ms (median) | wall ms (min) | CPU ms (median) |");
  console.log("|---|---:|---:|---:|");
  for (const [name, runs] of results) {
    const walls = runs.map((r) => r.wallMs);
    const cpus = runs.flatMap((r) => (r.cpuMs === null ? [] : [r.cpuMs]));
    const cpu = cpus.length > 0 ? median(cpus).toFixed(0) : "n/a";
    console.log(`| ${name} | ${median(walls).toFixed(0)} | ${Math.min(...walls).toFixed(0)} | ${cpu} |`);
  }
}

export function runCliStartBenchmark(): void {
  const node = process.execPath;
  const build = measure([{ name: "build dist/ (`node scripts/build-cli.cjs`, the `prepare` step)", command: [node, "scripts/build-cli.cjs"] }], 5);
  const dbFile = path.join(os.tmpdir(), `redline-bench-cli-${process.pid}.db`);
  const tsx = [node, path.join("node_modules", "tsx", "dist", "cli.mjs"), "scrapers/cli/main.ts"];
  const tsxImport = [node, "--import", "tsx", "scrapers/cli/main.ts"];
  const bundle = [node, "dist/redline.cjs"];
  const launcher = [node, "scripts/launch.cjs", "redline"];
  try {
    timeOnce([...bundle, "migrate", "--db", dbFile], `${dbFile}.time`);
    const results = measure(
      [
        { name: "`node -e 0` (Node alone)", command: [node, "-e", "0"] },
        { name: "`tsx scrapers/cli/main.ts --help` (npm run redline before)", command: [...tsx, "--help"] },
        { name: "`node --import tsx scrapers/cli/main.ts --help`", command: [...tsxImport, "--help"] },
        { name: "`node dist/redline.cjs --help`", command: [...bundle, "--help"] },
        { name: "`node scripts/launch.cjs redline --help` (npm run redline now, without npm)", command: [...launcher, "--help"] },
        { name: "`npm run redline -- --help`", command: ["npm", "run", "--silent", "redline", "--", "--help"] },
        { name: "`npm --version` (npm's own start)", command: ["npm", "--version"] },
        { name: "`migrate` (a migrated database) from the sources, `node --import tsx`", command: [...tsxImport, "migrate", "--db", dbFile] },
        { name: "`migrate` (a migrated database) through the launcher", command: [...launcher, "migrate", "--db", dbFile] },
      ],
      RUNS,
    );
    printTable(new Map([...build, ...results]));
  } finally {
    for (const suffix of ["", "-wal", "-shm", ".time"]) fs.rmSync(`${dbFile}${suffix}`, { force: true });
  }
}
