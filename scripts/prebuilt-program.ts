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
