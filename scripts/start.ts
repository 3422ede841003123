/**
 * `npm start`: migrate the database, build the web app when the build is missing or older than
 * the sources, then serve it. Honours PORT, HOST and REDLINE_DB.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { closeDatabase, openDatabase } from "@/db/client";
import { readEnv } from "@/lib/env";

const ROOT = path.resolve(__dirname, "..");
const SOURCE_DIRS = ["app", "lib", "db", "public"];
const SOURCE_FILES = ["next.config.ts", "package.json", "tsconfig.json"];

function newestMtime(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = [...SOURCE_DIRS, ...SOURCE_FILES].map((p) => path.join(ROOT, p)).filter((p) => fs.existsSync(p));
  return sources.some((p) => newestMtime(p) > built);
}

function main(): void {
  const env = readEnv();
  const db = openDatabase(env.REDLINE_DB);
  closeDatabase(db);
  console.log(`redline: database ${env.REDLINE_DB} is migrated`);
  const nextBin = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
  const childEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  if (buildIsStale()) {
    console.log("redline: building the web app (first start or sources changed)");
    const build = spawnSync(process.execPath, [nextBin, "build"], { cwd: ROOT, stdio: "inherit", env: childEnv });
    if (build.status !== 0) {
      process.exitCode = build.status ?? 1;
      return;
    }
  }
  const host = process.env.HOST ?? "127.0.0.1";
  console.log(`redline: serving on http://${host}:${env.PORT}`);
  const server = spawn(process.execPath, [nextBin, "start", "-H", host, "-p", String(env.PORT)], { cwd: ROOT, stdio: "inherit", env: childEnv });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}

main();
