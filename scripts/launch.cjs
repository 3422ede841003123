/**
 * `npm run redline` and `npm start`: `node scripts/launch.cjs <program> [args]` runs the program's
 * bundle from dist/, building the bundles first when they are missing or older than their sources,
 * and runs its TypeScript through tsx when they cannot be built (a read-only checkout, no esbuild).
 */
"use strict";
const { spawn } = require("node:child_process");
const os = require("node:os");
const path = require("node:path");
const { PROGRAMS, ROOT, buildCli, bundlePath, isBuildFresh } = require("./build-cli.cjs");

/** Programs that run when their bundle is loaded: they run inside this process, saving a Node start. */
const RUNS_ON_LOAD = new Set(["redline"]);

/**
 * The program as a child, for one that must be the main module (start checks `require.main`). A
 * Ctrl-C reaches it from the terminal; relaying SIGINT as well would stop it twice (the poller
 * takes a second one as "stop now"), so only SIGTERM and SIGHUP are relayed.
 */
function runChild(args) {
  const child = spawn(process.execPath, args, { stdio: "inherit" });
  child.on("error", (error) => {
    console.error(`redline: cannot start ${args.join(" ")}: ${error.message}`);
    process.exitCode = 1;
  });
  process.on("SIGINT", () => {});
  for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => {
    process.exitCode = code ?? 128 + (os.constants.signals[signal] ?? 0);
  });
}

async function main() {
  const [program, ...args] = process.argv.slice(2);
  if (program === undefined || !Object.hasOwn(PROGRAMS, program)) {
    console.error(`usage: node scripts/launch.cjs <${Object.keys(PROGRAMS).join("|")}> [args]`);
    process.exitCode = 2;
    return;
  }
  let built = true;
  if (!isBuildFresh()) {
    console.error("redline: building dist/ (missing or older than the sources)");
    try {
      await buildCli();
    } catch (error) {
      built = false;
      console.error(`redline: cannot build dist/ (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); running the TypeScript through tsx`);
    }
  }
  if (!built) return runChild(["--import", "tsx", path.join(ROOT, PROGRAMS[program]), ...args]);
  const bundle = bundlePath(program);
  if (!RUNS_ON_LOAD.has(program)) return runChild([bundle, ...args]);
  process.argv = [process.argv[0], bundle, ...args];
  require(bundle);
}

main().catch((error) => {
  console.error(`redline: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
