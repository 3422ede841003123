/** The `redline` command as a user runs it (`npm run redline -- …`), for benchmarks that measure what a user gets. */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { StorageStats } from "@/db/queries/storage-stats";

const ROOT = path.resolve(__dirname, "..");

export interface CliRun {
  stdout: string;
  ms: number;
}

/** Runs `npm run redline -- <args>` in the checkout; fails with its error output when it exits non-zero. */
export function runRedline(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    // Asynchronous, so a server in the calling process can answer the polls it makes.
    const proc = spawn("npm", ["run", "--silent", "redline", "--", ...args], {
      cwd: ROOT,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (d: Buffer) => { stdout += d.toString(); });
    proc.stderr.on("data", (d: Buffer) => { stderr += d.toString(); });
    proc.on("error", reject);
    proc.on("close", (code) => {
      if (code === 0) resolve({ stdout, ms: performance.now() - started });
      else reject(new Error(`redline ${args.join(" ")} exited ${code}: ${stderr.trim().split("\n").at(-1) ?? ""}`));
    });
  });
}

/** The seconds an import reports for itself ("… in 1.2 s"), without the command's start-up. */
export function reportedImportSeconds(stdout: string): number {
  const m = /captures in ([\d.]+) s/.exec(stdout);
  return m?.[1] ? Number(m[1]) : Number.NaN;
}

export async function readStatsJson(dbFile: string): Promise<StorageStats> {
  return JSON.parse((await runRedline(["stats", "--json", "--db", dbFile])).stdout) as StorageStats;
}

/** The bytes of a database as a user sees them once no process has it open. */
export function bytesOnDisk(file: string): number {
  return [file, `${file}-wal`, `${file}-shm`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}
