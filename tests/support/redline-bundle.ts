import path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * The arguments that run the `redline` command as operators run it (`npm run redline`): its
 * prebuilt bundle, which starts in about half the CPU of tsx compiling the sources at each command.
 * The run's global setup (tests/support/cli-bundle-setup.ts) rebuilds it first when the sources
 * moved on, so every command a test starts runs the code under test.
 */
export const REDLINE_BUNDLE = path.join(ROOT, "dist", "redline.cjs");
