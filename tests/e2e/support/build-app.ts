import fs from "node:fs";
import path from "node:path";
import { isWebBuildFresh } from "@/scripts/web-build";
import { CommandError, ROOT, runCommand } from "@/tests/e2e/support/commands";
import { withLock } from "@/tests/e2e/support/lock";

/** The e2e build's own folder (next.config.ts reads REDLINE_NEXT_DIST_DIR), so it never races `npm start`. */
export const DIST_DIR = ".next-e2e";
export const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
export const NEXT_ENV = { REDLINE_NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: "1" };

const BUILD_ID = path.join(ROOT, DIST_DIR, "BUILD_ID");
const LOG = path.join(ROOT, "test-results", "e2e", "next-build.log");

async function nextBuild(mode: "compile" | "generate"): Promise<void> {
  const result = await runCommand(process.execPath, [NEXT_BIN, "build", "--experimental-build-mode", mode], NEXT_ENV);
  fs.appendFileSync(LOG, `$ next build --experimental-build-mode ${mode}\n${result.stdout.toString("utf8")}${result.stderr}\n`);
  if (result.code !== 0) throw new CommandError(`e2e: next build (${mode}) exited ${result.code}; see ${path.relative(ROOT, LOG)}`);
}

/**
 * Builds the app into .next-e2e unless that build is newer than every source. Compile then
 * generate is `next build` without its type check: `npm test` runs tsc already, the check would
 * double the build time, and it rewrites tsconfig.json to list this folder.
 */
export async function ensureBuild(): Promise<void> {
  await withLock(path.join(ROOT, `${DIST_DIR}.lock`), async () => {
    if (isWebBuildFresh(DIST_DIR)) return;
    fs.mkdirSync(path.dirname(LOG), { recursive: true });
    fs.writeFileSync(LOG, "");
    fs.rmSync(BUILD_ID, { force: true });
    // Holding our lock, no other e2e build runs: a lock Next left behind is from a build that was killed.
    fs.rmSync(path.join(ROOT, DIST_DIR, "lock"), { force: true });
    try {
      await nextBuild("compile");
      await nextBuild("generate");
    } catch (error) {
      fs.rmSync(BUILD_ID, { force: true });
      throw error;
    }
  });
}
