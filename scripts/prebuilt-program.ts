import { createRequire } from "node:module";
import path from "node:path";
import PROGRAMS from "@/scripts/prebuilt.json";

const ROOT = path.resolve(__dirname, "..");
/** This code runs from a bundle in dist/: its sibling bundles were built with it, from the same sources. */
const BUNDLED = path.extname(__filename) === ".cjs";

export type PrebuiltProgram = keyof typeof PROGRAMS;

/**
 * Node's arguments to run one of the programs built ahead of time (scripts/build-cli.cjs): its
 * bundle when this process runs from the bundles, else its TypeScript through tsx, so tests and
 * the demo, which run from source, never run a stale bundle.
 */
export function programArgs(program: PrebuiltProgram, args: readonly string[] = []): string[] {
  if (BUNDLED) return [path.join(ROOT, "dist", `${program}.cjs`), ...args];
  return ["--import", "tsx", path.join(ROOT, PROGRAMS[program]), ...args];
}

/** How a worker thread runs one of them: its bundle next to this one's, or its TypeScript through tsx when this runs from source. */
export function workerThreadEntry(program: PrebuiltProgram): { filename: string; eval: boolean } {
  const args = programArgs(program);
  const script = args.at(-1) ?? "";
  if (args[0] !== "--import") return { filename: script, eval: false };
  // A worker's execArgv cannot load tsx's module hooks on Node 20; its CommonJS register can.
  const tsx = createRequire(__filename).resolve("tsx/cjs/api");
  return { filename: `require(${JSON.stringify(tsx)}).register(); require(${JSON.stringify(path.resolve(script))});`, eval: true };
}
