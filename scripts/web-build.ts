import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { newestMtime } from "@/scripts/newest-mtime";

const ROOT = path.resolve(__dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
/** What the web app is built from: a change to any of these makes a build stale. */
const WEB_SOURCES = ["app", "components", "lib", "db", "server", "public", "next.config.ts", "proxy.ts", "package.json", "package-lock.json", "tsconfig.json"];

/** The folder Next.js builds into and serves from; next.config.ts reads the same variable. */
function nextDistDir(): string {
  return process.env.REDLINE_NEXT_DIST_DIR ?? ".next";
}

/** True when the build in `distDir` (from the project root) is newer than every source of the web app. */
export function isWebBuildFresh(distDir = nextDistDir()): boolean {
  const buildId = path.join(ROOT, distDir, "BUILD_ID");
  if (!fs.existsSync(buildId)) return false;
  const built = fs.statSync(buildId).mtimeMs;
  const sources = WEB_SOURCES.map((p) => path.join(ROOT, p)).filter((p) => fs.existsSync(p));
  return sources.every((p) => newestMtime(p) <= built);
}

/** Build the web app if needed; false when the build failed. */
export function ensureBuilt(): boolean {
  if (isWebBuildFresh()) return true;
  console.log("redline: building the web app (first start or sources changed)");
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  return build.status === 0;
}
